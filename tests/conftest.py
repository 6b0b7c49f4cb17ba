"""Shared helpers for rule tests: scenarios on the small test map."""
from pathlib import Path

import pytest
import yaml

import cyclades

HERE = Path(__file__).parent
SMALL_MAP = yaml.safe_load((HERE / "scenarios" / "small_map.yaml").read_text())


def scenario(**data) -> cyclades.Game:
    """A game from a scenario dict; the board defaults to the small test map."""
    data.setdefault("board", SMALL_MAP)
    return cyclades.Game.from_scenario(data)


def act(game, kind, what="", where="", n=0):
    """Apply the action (kind, what, where, n); it must be legal."""
    return game.apply(cyclades.Action(kind, what, where, n))


def kinds(game):
    return {a.kind for a in game.legal_actions()}


@pytest.fixture
def small_map():
    return SMALL_MAP
