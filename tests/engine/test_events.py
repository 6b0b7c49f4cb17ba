"""Events say what they hold: one declaration per event kind
(engine/events.py), docs/events.md generated from it, and every event of random games of
every mode exactly as declared, areas named by their board ids.

The full count runs with `pytest -m slow tests/engine/test_events.py`.
"""
import ast
import random
from pathlib import Path

import pytest
from repository import ROOT

import cyclades
from cyclades.engine import events
from cyclades.engine.events import EVENTS, check

ENGINE = Path(cyclades.__file__).parent / "engine"

# Every mode: Legendary 2, 3, 4, 4 in teams, 5, 6 players; without the Maelström; classic 2 to 5.
MODES = {
    "legendary-2": dict(players=2), "legendary-3": dict(players=3), "legendary-4": dict(players=4),
    "legendary-4-teams": dict(players=4, teams=True), "legendary-5": dict(players=5),
    "legendary-6": dict(players=6),
    "no-maelstrom-3": dict(players=3, maelstrom=False), "no-maelstrom-4": dict(players=4, maelstrom=False),
    "no-maelstrom-5": dict(players=5, maelstrom=False),
    "classic-2": dict(players=2, ruleset="classic"), "classic-3": dict(players=3, ruleset="classic"),
    "classic-4": dict(players=4, ruleset="classic"), "classic-5": dict(players=5, ruleset="classic"),
}


def test_docs_events_md_is_generated_from_the_declaration():
    """docs/events.md is `python -m cyclades.engine.events` (regenerate it when events change)."""
    assert (ROOT / "docs" / "events.md").read_text() == events.markdown(), \
        "docs/events.md is stale: run `python -m cyclades.engine.events > docs/events.md`"


def test_declaration_is_well_formed():
    g = cyclades.new_game(players=3, seed=1)
    for kind in EVENTS.values():
        names = [f.name for f in kind.fields]
        assert len(names) == len(set(names)) and "type" not in names, kind.name
        assert kind.when.endswith("."), kind.name
        for f in kind.fields:
            assert f.meaning, (kind.name, f.name)
            assert events._problem(object(), f.type, g), (kind.name, f.name)  # a known type


def _emit_calls():
    """(file, line, kind, keywords, has **kwargs) of every g.emit / ops.emit in the engine."""
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call)
                    and getattr(node.func, "attr", getattr(node.func, "id", None)) == "emit"):
                continue
            kinds = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if kinds:
                yield (path.name, node.lineno, kinds[0], {k.arg for k in node.keywords if k.arg},
                       any(k.arg is None for k in node.keywords))


def test_every_emit_site_matches_the_declaration():
    """Statically, for the kinds random games rarely reach (Heracles, Achilles, elimination):
    each emit names a declared kind with declared fields, and all the required ones."""
    calls = list(_emit_calls())
    assert len(calls) > 80
    for name, line, kind, keys, splat in calls:
        assert kind in EVENTS, f"{name}:{line}: event {kind!r} is not declared in engine/events.py"
        declared = {f.name for f in EVENTS[kind].fields}
        required = {f.name for f in EVENTS[kind].fields if not f.optional}
        assert keys <= declared, f"{name}:{line}: {kind} fields {sorted(keys - declared)} not declared"
        assert splat or required <= keys, f"{name}:{line}: {kind} lacks {sorted(required - keys)}"
    assert {kind for _, _, kind, _, _ in calls} == set(EVENTS), "declared events never emitted"


def test_every_declared_event_has_a_sentence():
    """Each kind says its sentence beside its fields: a catalog message or a function."""
    for kind in EVENTS.values():
        assert isinstance(kind.says, str) or callable(kind.says), kind.name


def test_check_finds_what_is_wrong():
    g = cyclades.new_game(players=3, seed=1)
    land = g.board.ids[g.board.lands[0]]
    assert check({"type": "troop", "player": 0, "area": land, "count": 1}, g) == []
    assert check({"type": "troop", "player": 0, "area": g.board.lands[0], "count": 1}, g)  # an index
    assert check({"type": "troop", "player": 3, "area": land, "count": 1}, g)  # no such player
    assert check({"type": "troop", "player": 0, "area": land}, g)  # a field missing
    assert check({"type": "troop", "player": 0, "area": land, "count": 1, "frm": land}, g)  # extra
    assert check({"type": "troop", "player": 0, "area": land, "count": True}, g)  # a bool
    assert check({"type": "teleported", "player": 0}, g)
    assert check({"type": "control", "player": 0, "area": land, "previous": None}, g) == []


def _play_and_check(mode, seed):
    g = cyclades.new_game(seed=seed, max_cycles=100, **MODES[mode])
    rng = random.Random(seed)
    seen = set()
    while not g.is_over:
        for e in g.apply(rng.choice(g.legal_actions())):
            problems = check(e, g)
            assert not problems, f"{mode} seed {seed}: {problems} in {e}"
            seen.add(e["type"])
    return seen


@pytest.mark.parametrize("mode", sorted(MODES))
def test_events_of_random_games_match_the_declaration(mode):
    """Every event of random games of every mode: a declared kind, exactly its fields, values
    of the declared types, areas as valid ids, players as valid indices."""
    seen = set()
    for seed in range(2):
        seen |= _play_and_check(mode, seed)
    assert {"cycle", "income", "offering", "turn", "game_over"} <= seen


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_events_of_many_random_games_match_the_declaration(mode):
    seen = set()
    for seed in range(2, 102):
        seen |= _play_and_check(mode, seed)
    assert {"battle", "round", "moved", "control"} <= seen
