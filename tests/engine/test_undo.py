"""Undo as at a real table (engine/undo.py): within their turn the player to move takes back
their decisions, the last first, until another player's decision, a revealed or random one
(a die, a card drawn, a peek, the Griffin), or the one that began their turn."""
import copy
import random

import pytest
from randomgames import random_game

import cyclades
from cyclades.engine import undo
from cyclades.engine.actions import Action

HERA_TURN = {
    "players": 3, "board": "recommended", "seed": 13, "cycle": 3,
    "gods": ["hera", "athena", "zeus", "poseidon", "ares"], "turn_order": [0, 1, 2],
    "bids": {"hera": [0, 2], "athena": [1, 1]}, "apollo": [2],
    "player": [{"gp": 6}, {"gp": 3}, {"gp": 5}],
    "hero_track": ["pericles", "ajax"],
    "areas": {"thera": {"owner": 0, "troops": 2}, "lemnos": {"owner": 0, "troops": 1},
              "hebe-strait": {"owner": 0, "fleets": 1}, "hesperus-channel": {"owner": 0, "fleets": 2},
              "kythnos": {"owner": 1, "troops": 2}, "antikythera": {"owner": 1, "troops": 2},
              "euboea": {"owner": 2, "troops": 2}, "lesbos": {"owner": 2, "troops": 1}},
    "decision": {"turn": {"player": 0, "god": "hera",
                          "action_order": [[0, "hera"], [1, "athena"], [2, "apollo"]]}},
}


def turn_of(god):
    """HERA_TURN with another God: player 0 holds it and plays first."""
    gods = [god, "athena"] + [x for x in HERA_TURN["gods"] if x not in (god, "athena")]
    return {**HERA_TURN, "gods": gods, "bids": {god: [0, 2], "athena": [1, 1]},
            "decision": {"turn": {"player": 0, "god": god,
                                  "action_order": [[0, god], [1, "athena"], [2, "apollo"]]}}}


class Tracked:
    """A game and its steps, judged as each decision is made (as the server keeps them)."""

    def __init__(self, game):
        self.game, self.steps = game, []

    def do(self, action):
        g = self.game
        if isinstance(action, str):
            action = next(a for a in g.legal_actions() if str(a) == action)
        player, before = g.to_move, undo.unknowns(g)
        events = g.apply(action)
        self.steps.append(undo.judge(player, before, g, events))
        return events

    def first(self, kind):
        return self.do(next(a for a in self.game.legal_actions() if a.kind == kind))

    @property
    def limit(self):
        return undo.limit(self.steps, self.game.to_move)


def hera_to_menu():
    t = Tracked(cyclades.Game.from_scenario(HERA_TURN))
    t.do("Choose a Port")
    t.do("Build a Port on thera")
    t.do("Place a mercenary Troop on thera")
    return t


def test_recruiting_pericles_is_taken_back_step_by_step_to_the_start_of_the_turn():
    t = hera_to_menu()
    menu = t.game.legal_actions()
    gp_before = t.game.state.gp[0]
    t.do("Recruit Pericles for 4 GP")
    t.do("Place Pericles on thera")
    assert t.game.state.gp[0] == gp_before - 4 and t.game.state.hero_at == {"pericles": t.game.board.index["thera"]}
    assert t.limit == undo.Limit(5, undo.START, None)   # the scenario's position is the start
    placed = t.game
    back = undo.take_back(placed, 1, t.steps)
    assert [a.kind for a in back.legal_actions()] == ["place_hero", "place_hero"]
    back = undo.take_back(back, 1, t.steps[:-1])
    assert back.state.gp[0] == gp_before and back.state.hero_track == ["pericles", "ajax"]
    assert back.legal_actions() == menu and "pericles" not in back.state.hero_owner
    # Found again from the record alone, the same rule: three more steps, back to the turn's start.
    assert undo.undo_limit(back) == undo.Limit(3, undo.START, None)
    start = undo.take_back(back, 3)
    assert start.state.to_dict() == {**cyclades.Game.from_scenario(HERA_TURN).state.to_dict(),
                                      "version": start.state.version}
    with pytest.raises(undo.CannotUndo, match="the game began there"):
        undo.take_back(start, 1)
    # The original game is never changed by taking back.
    assert placed.state.hero_at and len(placed.history) == 5


def test_a_battle_die_ends_what_can_be_taken_back():
    d = {**turn_of("ares"), "dice": [2, 0, 2, 0]}
    t = Tracked(cyclades.Game.from_scenario(d))
    while not any(a.kind == "land_move" for a in t.game.legal_actions()):
        t.do(t.game.legal_actions()[0])
    t.first("land_move")
    t.do(Action("origin", where="thera"))
    t.do(Action("take", what="troop", n=2))
    assert t.limit.steps >= 4 and t.limit.reason == undo.START
    t.do(Action("destination", where="kythnos"))  # a battle: the first round is rolled
    assert t.game.to_move == 0 and t.steps[-1].final == undo.DICE
    assert t.limit == undo.Limit(0, undo.DICE, None)
    assert undo.reason_text(t.limit) == "You cannot go back further: the dice have been rolled."
    with pytest.raises(undo.CannotUndo, match="dice"):
        undo.take_back(t.game, 1, t.steps)


def test_another_players_decision_stands():
    g = cyclades.new_game(players=3, seed=4)
    t = Tracked(g)
    first = g.to_move
    while g.to_move == first:
        t.do(g.legal_actions()[0])
    assert t.limit == undo.Limit(0, undo.OTHER, first)
    text = undo.reason_text(t.limit, ["Ann", "Bob", "Cleo"])
    assert text == f"You have decided nothing yet this turn: {['Ann', 'Bob', 'Cleo'][first]} played before you."
    second = g.to_move
    t.do(g.legal_actions()[0])
    if g.to_move == second:
        assert t.limit == undo.Limit(1, undo.OTHER, first)
        assert undo.reason_text(t.limit).endswith("played before that.")


def test_zeus_peek_is_final():
    d = turn_of("zeus")
    t = Tracked(cyclades.Game.from_scenario(d))
    while not any(a.kind == "peek" for a in t.game.legal_actions()):
        t.do(t.game.legal_actions()[0])
    assert t.limit.steps >= 1
    t.first("peek")
    assert t.limit == undo.Limit(0, undo.PEEK, None)
    t.first("return_peeked")
    assert t.limit == undo.Limit(1, undo.PEEK, None)  # putting the card back may be taken back


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 4, "teams": True}, {"players": 2},
                                     {"players": 3, "ruleset": "classic"}, {"players": 5, "maelstrom": False}])
def test_every_step_taken_back_in_random_games_is_the_position_before_it(options):
    """Over whole random games of every mode: the steps judged as the game goes are those its
    record gives; whatever the rule allows to take back brings back exactly the position before
    (state, generator, legal actions) for the same player; and no decision taken back showed
    anything (the generator and the hidden piles are as they were)."""
    seen = {"undoable": 0, "final": set()}
    for seed in range(3):
        states, steps = [], []
        g = cyclades.new_game(seed=seed, max_cycles=6, **options)
        rng = random.Random(seed)
        states.append(copy.deepcopy(g.state.to_dict()))
        while not g.is_over:
            player, before = g.to_move, undo.unknowns(g)
            events = g.apply(rng.choice(g.legal_actions()))
            steps.append(undo.judge(player, before, g, events))
            states.append(copy.deepcopy(g.state.to_dict()))
            lim = undo.limit(steps, g.to_move)
            seen["final"].add(steps[-1].final)
            for k in range(1, lim.steps + 1):
                i = len(steps) - k
                assert steps[i].player == g.to_move and steps[i].final is None
                # nothing was revealed: the generator and the piles are as before that decision
                assert _unknowns(states[i]) == _unknowns(states[-1])
            if lim.steps and len(steps) % 7 == 0:
                seen["undoable"] += 1
                back = undo.take_back(g, 1, steps)
                assert back.state.to_dict() == {**states[-2], "version": back.state.version}
                assert back.to_move == g.to_move
                assert g.history[-1] in back.legal_actions()
        assert undo.steps_of(g) == steps
    assert seen["undoable"] > 3
    assert {undo.TURN, undo.CYCLE, None} <= seen["final"]


def _unknowns(state):
    """The generator and the hidden piles' sizes, the card Zeus' player is looking at counted in
    the Creature deck it was taken from and goes back to."""
    looked_at = sum(1 for f in state["stack"] if f["kind"] == "peek")
    return state["rng"], len(state["creature_deck"]) + looked_at, len(state["hero_deck"])


def test_nothing_is_taken_back_once_the_game_is_over():
    g = random_game(1, 3, max_cycles=3)
    assert undo.undo_limit(g) == undo.Limit(0, undo.OVER, None)
    assert undo.reason_text(undo.undo_limit(g)) == "The game is over: nothing can be taken back."
