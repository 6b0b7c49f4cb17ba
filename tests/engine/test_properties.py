"""Property tests over random full games.

CI runs a sample; the full count (1,000 games across 3, 4 and 5 players, and 1,000
classic games across 2 to 5) runs with `pytest -m slow tests/engine/test_properties.py`.
"""
import json
import random

import pytest
from randomgames import random_game

import cyclades
from cyclades.content.cards import CREATURES
from cyclades.engine.invariants import check

SAMPLE = [(seed, 3 + seed % 3) for seed in range(30)]
FULL = [(seed, 3 + seed % 3) for seed in range(1000)]
MAELSTROM_CREATURES = {c for c, card in CREATURES.items() if card.maelstrom}
# Team play (R22): 2 players (two factions each), 4 players in teams, 6 players.
TEAM_MODES = [(2, False), (4, True), (6, False)]
TEAM_SAMPLE = [(seed, players, teams) for players, teams in TEAM_MODES for seed in range(8)]
TEAM_FULL = [(seed, players, teams) for players, teams in TEAM_MODES for seed in range(500)]
# The 2009 classic edition (R1): 2 to 5 players on the classic board.
CLASSIC_SAMPLE = [(seed, 2 + seed % 4) for seed in range(40)]
CLASSIC_FULL = [(seed, 2 + seed % 4) for seed in range(1000)]


def _invariants(game, step):
    errors = check(game)
    assert not errors, f"step {step}: {errors}"


def _all_properties(seed, players, **options):
    rng = random.Random(seed * 7919)
    checkpoints = set(rng.sample(range(1, 300), 6))

    def on_step(game, step):
        _invariants(game, step)
        if step in checkpoints:
            _copy_is_independent(game, rng)
            _json_round_trip(game, rng)
            _views_hide_secrets(game)

    game = random_game(seed, players, on_step=on_step, **options)
    assert game.is_over and game.to_move is None and game.legal_actions() == []
    _replay_is_identical(game)
    return game


def _copy_is_independent(game, rng):
    """copy() is fully independent: playing on the copy leaves the original untouched."""
    before = game.to_json()
    twin = game.copy()
    for _ in range(20):
        if twin.is_over:
            break
        twin.apply(rng.choice(twin.legal_actions()))
    assert game.to_json() == before


def _json_round_trip(game, rng):
    """from_json(to_json()) is exact, RNG included: both continue identically."""
    text = game.to_json()
    clone = cyclades.Game.from_json(text)
    assert clone.to_json() == text
    a, b = game.copy(), clone
    moves = random.Random(rng.random())
    for _ in range(30):
        if a.is_over:
            break
        action = moves.choice(a.legal_actions())
        assert a.legal_actions() == b.legal_actions()
        assert a.apply(action) == b.apply(action)
    assert a.to_json() == b.to_json()


def _views_hide_secrets(game):
    """R24: a view holds no other player's GP, no pile order and no generator."""
    for p in range(game.state.n):
        v = game.view(p)
        json.dumps(v)
        for q, pv in enumerate(v["players"]):
            assert (pv["gp"] is None) == (not game.friends(p, q)) or game.is_over
        for pile in ("creature_deck", "hero_deck", "bonus_stack"):
            assert isinstance(v[pile], int)
        if game.is_over:
            continue  # screens are lifted at the end: GP decide ties (R21)
        # Changing only hidden facts (others' GP, pile order, the generator) changes nothing.
        other = game.copy()
        s = other.state
        for q in range(s.n):
            if not other.friends(p, q):
                s.gp[q] += 17
        s.creature_deck.reverse()
        s.hero_deck.reverse()
        s.bonus_stack.reverse()
        s.rng ^= 0x5DEECE66D
        assert other.view(p) == v


def _replay_is_identical(game):
    """Seed + decisions replay the game exactly (R4)."""
    record = json.loads(json.dumps(game.record()))
    again = cyclades.Game.from_record(record)
    assert again.to_json() == game.to_json()


@pytest.mark.parametrize("seed,players", SAMPLE)
def test_random_games_keep_every_property(seed, players):
    _all_properties(seed, players)


@pytest.mark.slow
@pytest.mark.parametrize("seed,players", FULL)
def test_random_games_keep_every_property_full(seed, players):
    _all_properties(seed, players)


@pytest.mark.parametrize("seed,players", [(s, p) for s, p in SAMPLE[:9]])
def test_core_deck_games_keep_every_property(seed, players):
    """R2: without the Maelström module (9 heroes, 18 creatures, 15 metropolis tokens)."""
    game = _all_properties(seed + 5000, players, maelstrom=False)
    assert not set(game.state.creature_discard) & MAELSTROM_CREATURES


@pytest.mark.slow
@pytest.mark.parametrize("seed,players", [(s, 3 + s % 3) for s in range(200)])
def test_core_deck_games_keep_every_property_full(seed, players):
    _all_properties(seed + 5000, players, maelstrom=False)


@pytest.mark.parametrize("seed,players,teams", TEAM_SAMPLE)
def test_team_games_keep_every_property(seed, players, teams):
    """R22 modes: the same invariants, copies, round trips, replays and hidden purses."""
    _all_properties(seed, players, teams=teams)


@pytest.mark.slow
@pytest.mark.parametrize("seed,players,teams", TEAM_FULL)
def test_team_games_keep_every_property_full(seed, players, teams):
    _all_properties(seed, players, teams=teams)


@pytest.mark.parametrize("seed,players", CLASSIC_SAMPLE)
def test_classic_games_keep_every_property(seed, players):
    """The classic ruleset: the same invariants, copies, round trips, replays and
    hidden purses, 10 games for each of 2 to 5 players."""
    game = _all_properties(seed + 7000, players, ruleset="classic")
    assert game.rules.name == "classic" and not game.state.hero_owner and not game.state.metro_bonus


@pytest.mark.slow
@pytest.mark.parametrize("seed,players", CLASSIC_FULL)
def test_classic_games_keep_every_property_full(seed, players):
    _all_properties(seed + 7000, players, ruleset="classic")


def test_illegal_action_is_refused_and_changes_nothing():
    game = cyclades.new_game(players=3, seed=5)
    before = game.to_json()
    with pytest.raises(cyclades.IllegalAction) as err:
        game.apply(cyclades.Action("bid", what="zeus", n=99))
    assert "not legal" in err.value.reason
    assert game.to_json() == before
    with pytest.raises(ValueError):
        game.apply({"kind": 3})
    assert game.to_json() == before


def test_actions_round_trip_through_json():
    game = random_game(11, 4, max_cycles=3)
    for action in game.history[:200]:
        assert cyclades.Action.from_json(json.loads(json.dumps(action.to_json()))) == action
        assert str(action) and "\n" not in str(action)
