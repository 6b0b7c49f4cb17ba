"""Positions that once left the engine without a legal action, kept so they never return."""
from positions import act, kinds, scenario

from cyclades.engine import metropolis, play
from cyclades.engine.invariants import check


def test_bonus_placements_skip_when_the_reserve_runs_out():
    """R13 / R28: two bonuses asking for troops with one troop left: the first placement takes
    it, the other placement is skipped rather than left without a legal action."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 7}, "west": {"owner": 0, "fleets": 1},
                        "naxos": {"owner": 1}, "melos": {"owner": 2}},
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    assert g.state.troops_left[0] == 1
    metropolis.apply_bonus(g, 0, "two-troops")
    metropolis.apply_bonus(g, 0, "troop-and-fleet")
    play.settle(g)
    assert kinds(g) == {"place_troop"}
    act(g, "place_troop", where="argos")  # the last troop
    assert kinds(g) == {"place_fleet"}  # the troop-and-fleet bonus goes on with its fleet
    act(g, "place_fleet", where="west")
    assert "end_turn" in kinds(g)  # the two-troops bonus found no troop: skipped
    assert not check(g)
