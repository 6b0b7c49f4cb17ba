"""Chance as a decision of its own (engine/chance.py): with chance="explicit" the game waits on
chance whenever a die is rolled (R3) or a card drawn, and whoever holds the game resolves it; by
default the seeded generator resolves it at once (R4), and an explicit game resolved the way the
generator would plays the seeded game decision for decision."""
import json
import random

import pytest
from positions import act, scenario

import cyclades
from cyclades import CHANCE, Action, IllegalAction
from cyclades.engine.invariants import check

MODES = [dict(players=3), dict(players=5), dict(players=4, teams=True), dict(players=3, ruleset="classic"),
         dict(players=2, ruleset="classic")]


def _play(g, rng, resolve, steps=None, on_chance=None):
    """Random decisions; chance resolved by `resolve(g)`. Returns the decisions' events."""
    out = []
    n = 0
    while not g.is_over and (steps is None or n < steps):
        if g.to_move == CHANCE:
            if on_chance:
                on_chance(g)
            events = g.apply(resolve(g))
            if out:
                out[-1] += events
            continue
        out.append(g.apply(rng.choice(g.legal_actions())))
        n += 1
    return out


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "-".join(f"{v}" for v in m.values()))
def test_explicit_chance_resolved_as_the_generator_would_plays_the_seeded_game(mode):
    """R4: `sample_chance()` gives the die the generator would roll and the card on top of the
    pile: the explicit game then has the seeded game's legal lists, events and result."""
    for seed in range(4):
        seeded = cyclades.new_game(seed=seed, max_cycles=40, **mode)
        explicit = cyclades.new_game(seed=seed, max_cycles=40, chance="explicit", **mode)
        a = _play(seeded, random.Random(seed), resolve=None)
        b = _play(explicit, random.Random(seed), resolve=lambda g: g.sample_chance())
        assert a == b
        assert seeded.result() == explicit.result()


def test_a_chance_decision_lists_its_outcomes_with_their_probabilities():
    """A battle die: faces 0..3 with 1/6, 1/3, 1/3, 1/6 (R3); a card drawn: the cards left in
    the pile, each as likely as its copies are many. The outcomes are the legal actions; any
    other action is refused and changes nothing."""
    seen = {"roll": 0, "draw": 0}

    def look(g):
        outcomes = g.chance_outcomes()
        assert [a for a, _ in outcomes] == g.legal_actions()
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        kind = outcomes[0][0].kind
        seen[kind] += 1
        f = g.state.stack[-1]
        if kind == "roll":
            assert [(a.n, p) for a, p in outcomes] == [(0, 1 / 6), (1, 1 / 3), (2, 1 / 3), (3, 1 / 6)]
        else:
            pile = getattr(g.state, f["draw"])
            assert {a.what for a, _ in outcomes} == set(pile)
            for a, p in outcomes:
                assert p == pytest.approx(pile.count(a.what) / len(pile))
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(Action("end_turn"))
        assert g.to_json() == before

    for seed in range(30):
        g = cyclades.new_game(players=3, seed=seed, max_cycles=30, chance="explicit")
        _play(g, random.Random(seed), resolve=lambda g: random.Random(g.state.version).choice(g.legal_actions()),
              on_chance=look)
        if seen["roll"] and seen["draw"]:
            break
    assert seen["roll"] and seen["draw"]


def test_the_outcome_chosen_is_the_outcome_played():
    """A die given by chance is the die the battle counts; a card drawn by chance is the card
    that comes (from anywhere in its pile), and the pile loses that card."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 1},
                        "naxos": {"owner": 1}},
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}},
                 player=[{"gp": 5}, {"gp": 0}])
    g = cyclades.Game.from_json(json.dumps({**json.loads(g.to_json()),
                                            "options": {**g.options, "chance": "explicit"}}))
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=3)
    act(g, "destination", where="corinth")
    assert g.to_move == CHANCE
    g.apply(Action("roll", n=3))
    assert g.to_move == CHANCE  # the defender's die
    events = g.apply(Action("roll", n=0))
    rounds = [e for e in events if e["type"] == "round"]
    assert rounds and rounds[0]["dice"] == [3, 0]


def test_a_card_put_back_by_zeus_is_no_chance_for_the_next_draw():
    """Zeus' peek takes the top card into the peeker's hand (a chance decision: any card of the
    deck); put back face down, it is the next card drawn, known: no chance decision for it."""
    g = cyclades.new_game(players=3, seed=1, chance="explicit")
    rng = random.Random(1)
    for _ in range(3000):
        if g.to_move == CHANCE:
            g.apply(g.sample_chance())
            continue
        if any(a.kind == "peek" for a in g.legal_actions()):
            break
        g.apply(rng.choice([a for a in g.legal_actions() if a.kind != "buy_creature"] or g.legal_actions()))
    else:
        pytest.skip("no Zeus turn in this game")
    deck_before = list(g.state.creature_deck)
    g.apply(Action("peek"))
    assert g.to_move == CHANCE and {a.what for a in g.legal_actions()} == set(deck_before)
    card = sorted(set(deck_before))[0]
    g.apply(Action("draw", what=card))
    f = g.state.stack[-1]
    assert f["kind"] == "peek" and f["card"] == card and len(g.state.creature_deck) == len(deck_before) - 1
    assert "card" not in g.view((f["player"] + 1) % g.state.n)["decision"]  # R24
    assert g.view(f["player"])["decision"]["card"] == card
    g.apply(Action("return_peeked"))
    assert g.state.creature_deck[-1] == card
    # The next creature card drawn is that one, with no chance decision for it.
    from cyclades.engine.chance import AFTER_CHANCE, draw
    from cyclades.engine.play import settle
    got = []
    AFTER_CHANCE.plug("test_drawn", lambda g, cards, args: got.extend(cards), owner="tests")
    try:
        draw(g, "creature_deck", 1, "test_drawn")
        settle(g)
    finally:
        AFTER_CHANCE.pop("test_drawn")
    assert got == [card] and g.to_move != CHANCE


def test_explicit_games_save_replay_and_copy():
    """An explicit game mid-chance survives JSON and copy; its record (chance outcomes among the
    decisions) replays it; its invariants hold at every decision, chance's included."""
    for seed, mode in enumerate(MODES):
        g = cyclades.new_game(seed=seed, max_cycles=20, chance="explicit", **mode)
        rng = random.Random(seed)
        at_chance = None
        while not g.is_over:
            assert not check(g), check(g)
            if g.to_move == CHANCE and at_chance is None:
                at_chance = g.copy()
                back = cyclades.Game.from_json(g.to_json())
                assert back.chance_outcomes() == g.chance_outcomes()
                assert back.view(None) == g.view(None)
            g.apply(rng.choice(g.legal_actions()))
        replayed = cyclades.Game.from_record(json.loads(json.dumps(g.record())))
        assert replayed.to_json() == g.to_json()
        assert g.options["chance"] == "explicit" and "chance" not in cyclades.new_game().options


def test_chance_is_not_waited_on_in_the_default_game_and_asking_is_refused():
    g = cyclades.new_game(players=3, seed=2)
    for _ in range(200):
        assert g.to_move != CHANCE
        g.apply(random.Random(2).choice(g.legal_actions()))
    with pytest.raises(IllegalAction):
        g.chance_outcomes()
    with pytest.raises(ValueError):
        cyclades.new_game(chance="sometimes")
