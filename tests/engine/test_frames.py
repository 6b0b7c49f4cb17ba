"""The decision stack's frames: readable fields, each declared in its kind's TypedDict, and saved
games of format 1 (one- and two-letter frame keys) still loading (engine/formats.py)."""
import json
import random
import sys

import pytest
from positions import SMALL_MAP
from repository import ROOT, TESTS

import cyclades
from cyclades.engine.formats import (
    FORMAT,
    FORMAT_1_COMMON_KEYS,
    FORMAT_1_FRAME_KEYS,
    FORMAT_2_KINDS,
    FormatError,
    frame_upgraded,
)
from cyclades.engine.frames import HANDLERS
from cyclades.engine.state import _frame_to_json

sys.path.insert(0, str(ROOT / "tools"))
import frame_keys

# Written by the engine of format 1 (before the frames' keys were renamed): the decision stack
# of a random game (mode, seed, cycle limit) after `step` decisions.
FORMAT_1_STACKS = json.loads((TESTS / "scenarios" / "format1_stacks.json").read_text())


def declared(kind) -> set:
    fields = HANDLERS[kind].fields
    return set(fields.__required_keys__) | set(fields.__optional_keys__)


@pytest.fixture(scope="module")
def keys():
    return frame_keys.collect(games=4, cycles=20)


def test_every_frame_kind_declares_its_fields(keys):
    assert set(keys) == set(HANDLERS)
    for kind in HANDLERS:
        assert {"kind", "player"} <= declared(kind), kind


def test_every_key_met_in_play_or_pushed_is_declared(keys):
    undeclared = {kind: sorted(set(ks) - declared(kind)) for kind, ks in keys.items()}
    assert not {k: v for k, v in undeclared.items() if v}, undeclared


def test_frame_keys_are_words(keys):
    summary = frame_keys.summary(keys)
    assert summary["short_keys"] == 0, summary["short"]
    assert all(len(k) >= 4 or k in ("sea", "how", "hero", "card", "area", "dice", "god", "left",
                                    "path", "unit", "seas", "step", "kind")
               for k in summary["keys"]), summary["keys"]


# --- format 1 ----------------------------------------------------------------------------------

def _play(mode, seed, max_cycles, steps=None):
    """The random game tools/frame_keys.py and the fixture play, after `steps` decisions."""
    g = cyclades.new_game(seed=seed, max_cycles=max_cycles, **mode)
    rng = random.Random(seed)
    n = 0
    while not g.is_over and (steps is None or n < steps):
        g.apply(rng.choice(g.legal_actions()))
        n += 1
    return g, rng


def _play_on(g, rng, decisions=150):
    out = []
    for _ in range(decisions):
        if g.is_over:
            break
        action = rng.choice(g.legal_actions())
        out.append((action, g.apply(action)))
    return out, g.to_json()


OLD_KINDS = {new: old for old, new in FORMAT_2_KINDS.items()}


def _old(f):
    """A current frame written as format 1 wrote it: its keys, and its kind's former name."""
    kind = OLD_KINDS.get(f["kind"], f["kind"])
    back = {new: old for old, new in FORMAT_1_FRAME_KEYS.get(kind, {}).items()}
    back.update({new: old for old, new in FORMAT_1_COMMON_KEYS.items()})
    return {back.get(k, k): (kind if k == "kind" else v) for k, v in _frame_to_json(f).items()}


def _format_2(f):
    """A current frame as format 2 wrote it: its kind's former name."""
    d = _frame_to_json(f)
    return {**d, "kind": OLD_KINDS.get(d["kind"], d["kind"])}


@pytest.mark.parametrize("row", FORMAT_1_STACKS, ids=lambda r: f"{r['stack'][-1]['k']}-{r['seed']}")
def test_a_format_1_game_loads_and_plays_on_identically(row):
    """A game saved by the engine of format 1 (`to_json`: the same state but for the frames'
    keys) loads with its frames renamed, and goes on as the game replayed here does."""
    g, _rng = _play(row["mode"], row["seed"], row["max_cycles"], row["step"])
    assert [frame_upgraded(f) for f in row["stack"]] == json.loads(g.to_json())["state"]["stack"]
    old = json.loads(g.to_json())
    old["format"] = 1
    old["state"]["stack"] = row["stack"]
    loaded = cyclades.Game.from_json(json.dumps(old))
    assert loaded.to_json() == g.to_json()
    assert loaded.legal_actions() == g.legal_actions()
    seed = random.Random(row["seed"]).random()
    assert _play_on(loaded, random.Random(seed)) == _play_on(g.copy(), random.Random(seed))


@pytest.mark.parametrize("row", FORMAT_1_STACKS[::4], ids=lambda r: f"{r['stack'][-1]['k']}-{r['seed']}")
def test_a_format_1_scenario_and_record_load(row):
    """`state_dict()` as the engine of format 1 wrote it (no `format` key, frames with the old
    keys) is the same position; so is a format-1 record started from it."""
    g, _ = _play(row["mode"], row["seed"], row["max_cycles"], row["step"])
    old = g.state_dict()
    del old["format"]
    old["decision"]["stack"]["frames"] = row["stack"]
    loaded = cyclades.Game.from_scenario(json.loads(json.dumps(old)))
    assert loaded.state_dict() == g.state_dict()
    assert loaded.legal_actions() == g.legal_actions()
    kind = row["stack"][-1]["k"]
    assert loaded.options["scenario"]["decision"]["stack"]["frames"][-1]["kind"] == FORMAT_2_KINDS.get(kind, kind)
    actions = [a.to_json() for a in loaded.legal_actions()[:1]]
    record = {"format": 1, "options": {**loaded.options, "scenario": old}, "actions": actions}
    replayed = cyclades.Game.from_record(record)
    expected = loaded.copy()
    for a in actions:
        expected.apply(a)
    assert json.loads(replayed.to_json()) == json.loads(expected.to_json())
    assert replayed.record()["format"] == FORMAT


def test_every_frame_of_random_games_survives_format_1():
    """Every frame met in random games of every mode, written with the keys of format 1, loads
    back as it was (the migration knows every renamed key of every kind)."""
    seen = set()
    for m, mode in enumerate(frame_keys.MODES):
        g, rng = _play(mode, 500 + m, 8, 0)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            for f in g.state.stack:
                assert frame_upgraded(_old(f)) == frame_upgraded(_format_2(f)) == _frame_to_json(f)
                seen.add(f["kind"])
    assert len(seen) >= 15, seen


@pytest.mark.parametrize("mode", [{"players": 3}, {"players": 3, "ruleset": "classic"}], ids=["legendary", "classic"])
def test_a_format_2_game_and_scenario_load_with_the_frame_kinds_renamed(mode):
    """Format 3 renamed four frame kinds (lmove, smove, metro, place): a game saved in format 2
    at such a frame, and a scenario written by hand with the old name, load and play on as the
    game itself does."""
    renamed = set()
    for seed in range(40):
        g, rng = _play(mode, 700 + seed, 6, 0)
        while not g.is_over and not (g.state.stack and g.state.stack[-1]["kind"] in OLD_KINDS
                                     and g.state.stack[-1]["kind"] not in renamed):
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        renamed.add(g.state.stack[-1]["kind"])
        old = json.loads(g.to_json())
        old["format"] = 2
        old["state"]["stack"] = [_format_2(f) for f in g.state.stack]
        assert old["state"]["stack"][-1]["kind"] in FORMAT_2_KINDS
        loaded = cyclades.Game.from_json(json.dumps(old))
        assert loaded.to_json() == g.to_json() and loaded.legal_actions() == g.legal_actions()
        hand = g.state_dict()
        del hand["format"]
        hand["decision"]["stack"]["frames"] = [_format_2(f) for f in g.state.stack]
        assert cyclades.Game.from_scenario(json.loads(json.dumps(hand))).legal_actions() == g.legal_actions()
        seed_on = random.Random(seed).random()
        assert _play_on(loaded, random.Random(seed_on)) == _play_on(g.copy(), random.Random(seed_on))
    assert len(renamed) >= (2 if mode.get("ruleset") == "classic" else 4), renamed  # classic: no placement, voyages


def test_a_hand_written_format_1_battle_plays_like_the_current_one():
    """Player 0's 3 troops from argos attack corinth (R18: they stand in the battle frame)."""
    old = {"k": "battle", "p": 0, "sea": False, "area": 1, "att": 0, "dfd": 1, "frm": 0,
           "at": 3, "am": 0, "ah": [], "af": 0, "stage": "start", "pend": [], "lost": [],
           "dice": [], "round": 0, "last": False}
    new = {"kind": "battle", "player": 0, "sea": False, "area": 1, "attacker": 0, "defender": 1,
           "origin": 0, "attacker_troops": 3, "attacker_mercenaries": 0, "attacker_heroes": [],
           "attacker_fleets": 0, "stage": "start", "pending": [], "losers": [], "dice": [],
           "round": 0, "last_area": False}
    turn = {"kind": "turn", "player": 0, "god": "ares", "stage": "main", "recruits_bought": 0,
            "heroic_moves": 0, "done_once": []}
    games = []
    for frame in (old, new):
        games.append(cyclades.Game.from_scenario({
            "board": SMALL_MAP, "player": [{"gp": 8}, {}, {}],
            "areas": {"argos": {"owner": 0}, "corinth": {"owner": 1, "troops": 2},
                      "melos": {"owner": 2}, "naxos": {"owner": 1}},
            "decision": {"stack": {"phase": "actions", "action_order": [[0, "ares"]],
                                   "next_action": 1, "frames": [turn, frame]}}}))
    a, b = games
    assert a.to_json() == b.to_json()
    assert a.state.stack[-1]["attacker_troops"] == 3 and a.state.troops_left[0] == 8 - 3
    assert a.options["scenario"]["decision"]["stack"]["frames"][-1] == new
    rng_a, rng_b = random.Random(1), random.Random(1)
    while any(f["kind"] == "battle" for f in a.state.stack):
        assert a.legal_actions() == b.legal_actions()
        assert a.apply(rng_a.choice(a.legal_actions())) == b.apply(rng_b.choice(b.legal_actions()))
    assert a.to_json() == b.to_json()


def test_unknown_formats_are_refused_with_the_format_named():
    g = cyclades.new_game(players=3, seed=1)
    d = json.loads(g.to_json())
    d["format"] = 7
    with pytest.raises(FormatError, match="unsupported game format 7"):
        cyclades.Game.from_json(d)
    with pytest.raises(FormatError, match="unsupported record format 0"):
        cyclades.Game.from_record({**g.record(), "format": 0})
    with pytest.raises(cyclades.ScenarioError, match="format: unsupported scenario format 'x'"):
        cyclades.Game.from_scenario({**g.state_dict(), "format": "x"})
    assert json.loads(g.to_json())["format"] == g.record()["format"] == g.state_dict()["format"] == FORMAT == 3


def test_the_turn_menu_order_does_not_depend_on_import_order():
    """The turn menu lists its items in turns.MENU_ORDER whatever order the modules registering
    them were imported in (ruff sorts imports: registration order must decide nothing)."""
    from cyclades.content.rulesets import RULESETS
    from cyclades.engine import turns
    from cyclades.engine.turns import MENU

    before = {name: turns.menu_for(RULESETS[name]) for name in RULESETS}
    saved = dict(MENU)
    try:
        MENU.clear()
        MENU.update(reversed(list(saved.items())))
        turns._MENU_FOR.clear()
        assert {name: turns.menu_for(RULESETS[name]) for name in RULESETS} == before
    finally:
        MENU.clear()
        MENU.update(saved)
        turns._MENU_FOR.clear()
