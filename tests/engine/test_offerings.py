"""3- Offerings (rulebook, "3- Offerings"; R9-R12)."""
import pytest
from positions import act, scenario

import cyclades

GODS = ["zeus", "ares", "poseidon", "athena", "hera"]  # 3 players: Zeus and Ares face up
PURPLE, YELLOW, BLUE = 0, 1, 2
LANDS = {"argos": {"owner": 0}, "naxos": {"owner": 1}, "melos": {"owner": 2}}


def offerings(players=3, gp=(10, 10, 10), priestesses=(0, 0, 0), **data):
    data.setdefault("gods", GODS)
    data.setdefault("turn_order", list(range(players)))
    data.setdefault("areas", LANDS)
    return scenario(players=players, decision={"offerings": {}},
                    player=[{"gp": x, "priestesses": n} for x, n in zip(gp, priestesses)], **data)


def bids_on(game, god):
    return sorted(a.n for a in game.legal_actions() if a.kind == "bid" and a.what == god)


def gods_offered(game):
    return {a.what for a in game.legal_actions() if a.kind == "bid"}


def test_offerings_rulebook_example_3_players():
    """Rulebook, Example - Offerings - 3 players, move by move: purple Zeus 3, yellow Zeus 5
    (purple kicked out), purple Ares 1, blue Ares 7 (purple kicked out), purple Zeus 7 (yellow
    kicked out), yellow Apollo."""
    g = offerings()
    assert g.to_move == PURPLE and gods_offered(g) == {"zeus", "ares"}
    act(g, "bid", "zeus", n=3)
    assert g.to_move == YELLOW
    assert bids_on(g, "zeus")[0] == 4  # strictly higher than 3
    ev = act(g, "bid", "zeus", n=5)
    assert {"type": "outbid", "player": PURPLE, "god": "zeus"} in ev
    assert g.to_move == PURPLE  # immediately, before blue
    assert gods_offered(g) == {"ares"}  # not the god just lost
    act(g, "bid", "ares", n=1)
    assert g.to_move == BLUE
    act(g, "bid", "ares", n=7)
    assert g.to_move == PURPLE
    # Note 2: kicked out of his second god, purple may return to the first one
    assert gods_offered(g) == {"zeus"} and bids_on(g, "zeus")[0] == 6
    act(g, "bid", "zeus", n=7)
    assert g.to_move == YELLOW
    assert gods_offered(g) == {"ares"} and bids_on(g, "ares")[0] == 8
    act(g, "apollo")
    # the bidding is over: the offerings are paid, then the actions begin (Zeus first)
    assert g.state.bids == {"zeus": (PURPLE, 7), "ares": (BLUE, 7)}
    assert g.state.apollo == [YELLOW]
    assert g.phase == "actions"
    assert g.state.action_order == [[PURPLE, "zeus"], [BLUE, "ares"], [YELLOW, "apollo"]]
    assert g.state.gp == [3, 10, 3]


def test_offerings_only_face_up_gods_and_apollo():
    """Rulebook, Setup / 3- Offerings: face-down gods take no offering; Apollo is always there."""
    g = offerings(players=4, gp=(5,) * 4, priestesses=(0,) * 4,
                  areas={**LANDS, "ios": {"owner": 3}})
    assert gods_offered(g) == {"zeus", "ares", "poseidon"}
    assert cyclades.Action("apollo") in g.legal_actions()


def test_offering_bids_from_1_to_what_the_player_can_pay():
    """R10, R11: a bid is a whole number from 1 up to what the player can pay."""
    g = offerings(gp=(4, 10, 10))
    assert bids_on(g, "zeus") == [1, 2, 3, 4]
    with pytest.raises(cyclades.IllegalAction):
        act(g, "bid", "zeus", n=5)
    with pytest.raises(cyclades.IllegalAction):
        act(g, "bid", "zeus", n=0)
    assert g.to_move == PURPLE and g.state.bids == {}  # unchanged


def test_offering_cap_is_25():
    """R10 / rulebook Note 4: it is impossible to overbid above 25 GP."""
    g = offerings(gp=(40, 40, 40))
    assert max(bids_on(g, "zeus")) == 25
    act(g, "bid", "zeus", n=25)
    assert "zeus" not in gods_offered(g)  # nobody can outbid 25
    assert max(bids_on(g, "ares")) == 25


def test_offering_affordability_counts_priestess_discount():
    """R11: 2 GP and 2 Priestesses can bid 4, not 5."""
    g = offerings(gp=(2, 10, 10), priestesses=(2, 0, 0))
    assert max(bids_on(g, "zeus")) == 4
    with pytest.raises(cyclades.IllegalAction):
        act(g, "bid", "zeus", n=5)


def test_offering_with_nothing_to_pay_only_apollo():
    """R11: with no GP and no Priestess no bid is payable; Apollo remains."""
    g = offerings(gp=(0, 10, 10))
    assert g.legal_actions() == [cyclades.Action("apollo")]


def test_offering_payment_bid_minus_priestesses():
    """R12 / rulebook, Zeus: each Priestess takes 1 GP off the offering paid; a discount equal to
    or greater than the bid means paying nothing (never below 0)."""
    g = offerings(gp=(2, 10, 10), priestesses=(2, 5, 0))
    act(g, "bid", "zeus", n=4)      # purple: 4 - 2 = 2
    act(g, "bid", "ares", n=3)      # yellow: 3 - 5 -> 0
    act(g, "apollo")                # blue
    assert g.state.gp[PURPLE] == 0 and g.state.gp[YELLOW] == 10
    assert g.state.priestesses == [2, 5, 0]  # priestesses are not spent on offerings


def test_offering_paid_in_full_without_priestesses():
    """R12: without Priestesses the whole bid is paid."""
    g = offerings(gp=(9, 10, 10))
    act(g, "bid", "zeus", n=6)
    act(g, "bid", "ares", n=1)
    act(g, "apollo")
    assert g.state.gp[:2] == [3, 9]


def test_offering_apollo_takes_any_number_and_is_never_kicked_out():
    """R9 / rulebook Note 3: Apollo takes any number of players and no one is kicked out of it;
    Apollo players act last in the order in which they chose Apollo."""
    g = offerings(players=4, gp=(5,) * 4, priestesses=(0,) * 4,
                  areas={**LANDS, "ios": {"owner": 3}})
    act(g, "apollo")                 # player 0
    assert g.to_move == 1
    act(g, "bid", "zeus", n=2)       # player 1
    act(g, "bid", "zeus", n=3)       # player 2 kicks 1 out
    assert g.to_move == 1
    act(g, "apollo")                 # player 1 joins Apollo: nobody is kicked out
    assert g.to_move == 3
    act(g, "apollo")
    assert g.state.apollo == [0, 1, 3]
    assert g.phase == "actions"
    assert g.state.action_order == [[2, "zeus"], [0, "apollo"], [1, "apollo"], [3, "apollo"]]


def test_offering_chain_resolves_before_next_player():
    """Rulebook Note 1 / R10: a kicked-out player may kick out another, and all of it resolves
    before the next player in turn order bids."""
    g = offerings(players=4, gp=(9,) * 4, priestesses=(0,) * 4, turn_order=[3, 1, 0, 2],
                  areas={**LANDS, "ios": {"owner": 3}})
    act(g, "bid", "zeus", n=2)       # 3
    act(g, "bid", "ares", n=2)       # 1
    assert g.to_move == 0
    act(g, "bid", "zeus", n=3)       # 0 kicks 3 out of Zeus
    assert g.to_move == 3
    act(g, "bid", "ares", n=4)       # 3 kicks 1 out of Ares
    assert g.to_move == 1            # still before player 2
    assert gods_offered(g) == {"zeus", "poseidon"}
    act(g, "bid", "zeus", n=5)       # 1 kicks 0 out of Zeus
    assert g.to_move == 0
    assert gods_offered(g) == {"ares", "poseidon"}  # 0 may go to Ares it never held
    act(g, "bid", "poseidon", n=1)   # the chain ends on a free god
    assert g.to_move == 2
    assert g.state.bids == {"zeus": (1, 5), "ares": (3, 4), "poseidon": (0, 1)}


def test_offering_kicked_out_player_may_not_rebid_same_god_but_may_return_later():
    """R10 / rulebook Note 2: the god just lost is closed to the kicked-out player only for this
    bid; a god held earlier is open."""
    g = offerings(gp=(10, 10, 10))
    act(g, "bid", "ares", n=1)        # purple
    act(g, "bid", "ares", n=2)        # yellow kicks purple
    assert "ares" not in gods_offered(g) and "zeus" in gods_offered(g)
    act(g, "bid", "zeus", n=1)        # purple to Zeus
    act(g, "bid", "zeus", n=2)        # blue kicks purple
    assert gods_offered(g) == {"ares"}  # back to the first god
    act(g, "bid", "ares", n=3)        # kicks yellow
    assert g.to_move == YELLOW and gods_offered(g) == {"zeus"}

