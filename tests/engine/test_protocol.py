"""The decision protocol declared once (engine/actions.py KINDS, the roles of frame fields in
engine/frames.py) and the Game as the public face (engine/game.py)."""
import random
import typing

import pytest
from positions import SMALL_MAP, scenario

import cyclades
from cyclades import Action
from cyclades.engine import actions, frames
from cyclades.engine.frames import HANDLERS, roles
from cyclades.engine.game import Game
from cyclades.engine.observation import public_state

MODES = [dict(players=3), dict(players=5), dict(players=4, teams=True), dict(players=3, maelstrom=False),
         dict(players=3, ruleset="classic"), dict(players=2, ruleset="classic")]


def _legal_actions_met(games=6, cycles=25):
    """Every legal action of a few random games of every mode."""
    for mode in MODES:
        for seed in range(games):
            g = cyclades.new_game(seed=seed, max_cycles=cycles, **mode)
            rng = random.Random(seed)
            while not g.is_over:
                legal = g.legal_actions()
                yield g, legal
                g.apply(rng.choice(legal))


def test_every_action_met_in_play_fits_its_declared_kind():
    """Each action's kind is declared, and its arguments are within what the declaration says
    they range over: `what` among its words, `where` an area (or its words), `n` 0..high."""
    for g, legal in _legal_actions_met():
        for a in legal:
            kind = actions.KINDS[a.kind]
            assert not kind.chance
            assert (a.what in kind.whats()) if kind.what else a.what == "", a
            if kind.where is None:
                assert a.where == "", a
            elif kind.where.areas:
                assert a.where in g.board.index, a
            else:
                assert a.where in kind.where.words, a
            assert (0 <= a.n <= kind.n.high) if kind.n else a.n == 0, a


def test_action_repr_is_python_that_makes_the_action_again():
    for a in (Action("bid", what="zeus", n=3), Action("end_turn"), Action("claim", where="naxos"),
              Action("take", "troop", "", 2), Action("swap_creature", "harpy", "slot-3", 1)):
        assert eval(repr(a), {"Action": Action}) == a
    assert repr(Action("bid", what="zeus", n=3)) == "Action('bid', what='zeus', n=3)"
    assert str(Action("bid", what="zeus", n=3)) == "Offer 3 GP to Zeus"


def test_every_field_role_matches_the_field_type():
    """A field's role says what its value is: areas are ints (or tuples of them), players ints,
    secret cards strings (or tuples); the roles are read by the kind, for every kind."""
    for kind, handler in HANDLERS.items():
        hints = typing.get_type_hints(handler.fields)
        for field, role in roles(kind).items():
            base = typing.get_origin(hints[field]) or hints[field]
            if role in frames.AREA_ROLES or role in (frames.PLAYER, frames.COUNT):
                assert base is int, (kind, field)
            elif role in (frames.AREAS, frames.AREA_COUNTS, frames.QUEUE):
                assert base is tuple, (kind, field)
            else:
                assert role.seen_by in frames.fields(kind), (kind, field)


def test_the_view_shows_every_area_field_as_an_area_id():
    """Areas in a decision frame reach people and clients as board ids, whatever the kind
    (a battle's, a land move's origin, the Sylph's first sea, the placement's claimed areas)."""
    seen = set()
    for g, _legal in _legal_actions_met(games=3):
        f = g.state.stack[-1] if g.state.stack else None
        if f is None:
            continue
        dec = g.view(f["player"])["decision"]
        for field, role in roles(f["kind"]).items():
            if field not in f:
                continue
            if role in frames.AREA_ROLES:
                assert dec[field] == (g.board.ids[f[field]] if f[field] >= 0 else None)
                seen.add((f["kind"], field))
            elif role is frames.AREAS:
                assert dec[field] == [g.board.ids[a] for a in f[field]]
            elif role is frames.QUEUE:
                assert field not in dec
    assert ("battle", "area") in seen or ("land_move", "origin") in seen


def test_secret_cards_are_hidden_from_the_other_players_and_determinized():
    """R24: a frame's secret cards (the Sphinx's, Zeus' peek) reach only the player who sees
    them; another player's observation has a guess in their place, drawn from the cards no one
    has seen."""
    g = scenario(player=[{"gp": 9}, {"gp": 5}, {"gp": 5}],
                 areas={"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1}},
                 creature_track=["sphinx", "harpy", "dryad", "satyr"],
                 creature_deck=["griffin", "chimera", "pegasus", "graeae"],
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    g.apply(Action("buy_creature", what="sphinx", n=2))
    f = g.state.stack[-1]
    assert f["card"] == "sphinx" and len(f["cards"]) == 3
    assert g.view(0)["decision"]["cards"] == list(f["cards"])
    assert "cards" not in g.view(1)["decision"] and "cards" not in g.view(None)["decision"]
    raw = public_state(g, 1)["stack"][-1]
    assert raw["cards"] == [None, None, None]
    det = g.observe(1).determinize(random.Random(0))
    guessed = det.state.stack[-1]["cards"]
    assert len(guessed) == 3 and None not in guessed
    # guesses among the cards no one has seen: none of them on the track, discarded or held
    shown = set(g.state.creature_track) | set(g.state.creature_discard) | set(g.state.creature_owner)
    assert not set(guessed) & shown and not set(guessed) & set(det.state.creature_deck)


def test_a_scenario_frame_is_read_by_its_declared_fields():
    """Scenario loading checks each frame's fields by the kind's declaration: no field the kind
    has not, every field it needs, players and areas in range."""
    battle = {"kind": "battle", "player": 0, "sea": False, "area": 1, "attacker": 0, "defender": 1,
              "origin": 0, "attacker_troops": 1, "attacker_mercenaries": 0, "attacker_heroes": [],
              "attacker_fleets": 0, "stage": "start", "pending": [], "losers": [], "dice": [], "round": 0,
              "last_area": False}
    base = dict(board=SMALL_MAP, areas={"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 1, "troops": 1},
                                        "naxos": {"owner": 1}})
    for broken, word in (({"defender": 7}, "defender"), ({"origin": 99}, "origin"),
                         ({"attacker_troops": -1}, "attacker_troops"), ({"colour": "red"}, "has no")):
        frame = {**battle, **broken}
        with pytest.raises(cyclades.ScenarioError, match=word):
            Game.from_scenario({**base, "decision": {"stack": {"frames": [frame]}}})


def test_the_public_face_keeps_its_documented_api():
    """What bots, the server, the environments and the tests use: documented in engine/game.py
    and present on every Game."""
    g = cyclades.new_game(players=4, teams=True, seed=1)
    doc = Game.__doc__ or ""
    for name in ("new", "from_scenario", "from_record", "from_json", "to_move", "is_over", "phase",
                 "legal_actions", "apply", "events", "chance_outcomes", "sample_chance", "result", "copy",
                 "history", "view", "observe", "state_dict", "to_json", "record", "board", "rules", "state",
                 "options", "teams", "goal", "max_cycles", "chance", "purse", "purse_holder", "friends",
                 "teammates", "sees_purse", "committed", "side_metropolises", "counted_metropolises"):
        assert hasattr(g, name), name
    import cyclades.engine.game as game_module
    for name in ("legal_actions", "apply", "chance_outcomes", "purse", "friends", "side_metropolises"):
        assert name in game_module.__doc__, name
    assert g.purse(0) == g.purse(2) == 10 and g.friends(0, 2) and not g.friends(0, 1)
    assert g.teammates(1) == [3] and g.purse_holder(3) == 1 and g.sees_purse(0, 2)
    assert doc  # a docstring for the class too
    for private in ("pay", "gain", "may_stop", "may_attack", "allowed_start", "goal_reached", "_settle"):
        assert not hasattr(g, private), private
