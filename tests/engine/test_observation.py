"""Observations for agents (R24): what a player knows, and games sampled from it."""
import random

from randomgames import random_game

from cyclades.engine.game import Game
from cyclades.engine.invariants import check
from cyclades.engine.observation import Observation, public_state
from cyclades.engine.state import State


def _positions(seed, players, every=37, **options):
    found = []
    random_game(seed, players, on_step=lambda g, step: step % every or found.append(g.copy()),
                **options)
    return found


def test_observation_holds_nothing_hidden():
    """R24: an observation carries no game, no state and no hidden fact: two games that differ
    only in hidden facts (others' purses, pile order, the generator) give equal observations."""
    for g in _positions(3, 4)[:12]:
        p = g.to_move
        obs = g.observe(p)
        for name in Observation.__slots__:
            assert not isinstance(getattr(obs, name), (Game, State))
        other = g.copy()
        s = other.state
        for q in range(s.n):
            if q != p:
                s.gp[q] += 11
        s.creature_deck.reverse()
        s.hero_deck.reverse()
        s.bonus_stack.reverse()
        s.rng ^= 12345
        twin = other.observe(p)
        assert twin.view == obs.view and twin.legal_actions() == obs.legal_actions()
        assert public_state(other, p) == public_state(g, p)


def test_determinized_games_agree_with_the_observation_and_play_on():
    """Information-set sampling: a determinized game shows the observer exactly what the real
    game shows them, keeps every invariant, and plays to the end."""
    rng = random.Random(5)
    for players, teams in ((3, False), (5, False), (4, True)):
        for g in _positions(players * 7, players, teams=teams)[:8]:
            p = g.to_move
            obs = g.observe(p)
            sample = obs.determinize(rng)
            assert public_state(sample, p) == public_state(g, p)
            assert sample.legal_actions() == g.legal_actions()
            assert not check(sample)
            while not sample.is_over:
                sample.apply(rng.choice(sample.legal_actions()))


def test_determinize_samples_vary_the_hidden_facts():
    g = _positions(11, 3)[3]
    p = g.to_move
    obs = g.observe(p)
    decks = {tuple(obs.determinize(random.Random(i)).state.creature_deck) for i in range(10)}
    assert len(decks) > 1
