"""Cyclades in Python: a rules engine for the board game, with agents and interfaces.

    import cyclades
    game = cyclades.new_game(players=3, seed=7)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
"""
from typing import Any

from .engine.actions import Action
from .engine.board import Board
from .engine.game import CHANCE, Game, IllegalAction
from .engine.scenario import ScenarioError

__all__ = ["CHANCE", "Action", "Board", "Game", "IllegalAction", "ScenarioError", "new_game"]
__version__ = "0.1.0"


def new_game(players: int = 3, ruleset: str = "legendary", seed: int = 0, board: str | dict[str, Any] = "random",
             maelstrom: bool = True, max_cycles: int | None = None, teams: bool = False, team_goal: int = 3,
             chance: str = "seeded") -> Game:
    """A new game, waiting on the first placement decision.

    players: 3 to 5; 4 with teams=True plays two teams; 6 plays three teams; 2 plays
      two teams of two factions each (R22). `to_move` always names a faction.
    board: "random" (assembled from the seed) or "recommended" (the rulebook's lists).
    max_cycles: optional guard ending the game after that many cycles (R21 tie-breaks).
    team_goal: metropolises a team needs, 3 or 4.
    chance: "seeded" (the seed's generator rolls the dice and the piles give their top cards,
      inside `apply`) or "explicit" (the game waits on chance, `to_move == CHANCE`: its legal
      actions are the outcomes, `chance_outcomes()` their probabilities).
    """
    return Game.new(players=players, ruleset=ruleset, seed=seed, board=board,
                    maelstrom=maelstrom, max_cycles=max_cycles, teams=teams, team_goal=team_goal,
                    chance=chance)
