"""Cyclades in Python: a rules engine for the board game, with agents and interfaces.

    import cyclades
    game = cyclades.new_game(players=3, seed=7)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
"""
from .engine.actions import Action
from .engine.board import Board
from .engine.game import Game, IllegalAction
from .engine.scenario import ScenarioError

__all__ = ["Action", "Board", "Game", "IllegalAction", "ScenarioError", "new_game"]
__version__ = "0.1.0"


def new_game(players=3, ruleset="legendary", seed=0, board="random", maelstrom=True,
             max_cycles=None, teams=False, team_goal=3) -> Game:
    """A new game, waiting on the first placement decision.

    players: 3 to 5; 4 with teams=True plays two teams; 6 plays three teams; 2 plays
      two teams of two factions each (R22). `to_move` always names a faction.
    board: "random" (assembled from the seed) or "recommended" (the rulebook's lists).
    max_cycles: optional guard ending the game after that many cycles (R21 tie-breaks).
    team_goal: metropolises a team needs, 3 or 4.
    """
    return Game.new(players=players, ruleset=ruleset, seed=seed, board=board,
                    maelstrom=maelstrom, max_cycles=max_cycles, teams=teams, team_goal=team_goal)
