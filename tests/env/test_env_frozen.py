"""The PettingZoo environment hands out its observation vectors and masks without
copying them (`GameEncoder.frozen_observation`, `frozen_mask`). What it relies on, and what it
promises: an array handed out is read-only and never changes while anyone holds it (or a view
of it), whatever the game does next; once dropped, the encoder writes into it again, so a
loop that drops its observations copies nothing."""
import random

import pytest

np = pytest.importorskip("numpy", reason="numpy (the 'rl' extra) is not installed")

import cyclades  # noqa: E402
from cyclades.agents.encoding import ObservationEncoder, legal_mask  # noqa: E402
from cyclades.env import incremental  # noqa: E402
from cyclades.env.incremental import GameEncoder  # noqa: E402


def _random_game(seed):
    """A game (3 players, 25 cycles at most) and a generator for its random decisions."""
    return cyclades.new_game(players=3, seed=seed, max_cycles=25), random.Random(seed)


def test_kept_arrays_never_change():
    """Observations and masks kept (whole, as a slice, inside a dict) over a whole game stay
    exactly what they were when handed out, for the faction to move and the others."""
    ref = ObservationEncoder()
    g, rng = _random_game(5)
    enc = GameEncoder()
    kept = []  # (array or slice handed out, its expected numbers)
    step = 0
    while not g.is_over and step < 400:
        for p in range(g.state.n):
            x, m = enc.frozen_observation(g, p), enc.frozen_mask(g, p)
            expected, expected_mask = ref.encode(g, p), legal_mask(g, p)
            assert np.array_equal(x, expected) and np.array_equal(m, expected_mask)
            if step % 7 == p:
                kept.append((x, expected))
                kept.append(({"mask": m}, expected_mask))
            if step % 11 == p:
                kept.append((x[100:300], expected[100:300]))  # a view keeps it too
        g.apply(rng.choice(g.legal_actions()))
        step += 1
    for held, expected in kept:
        array = held["mask"] if isinstance(held, dict) else held
        assert np.array_equal(array, expected)


def test_frozen_arrays_are_read_only():
    g, _ = _random_game(6)
    enc = GameEncoder()
    me, other = g.to_move, (g.to_move + 1) % g.state.n
    for array in (enc.frozen_observation(g, me), enc.frozen_mask(g, me), enc.frozen_mask(g, other)):
        assert not array.flags.writeable
        with pytest.raises(ValueError):
            array[0] = 1
    with pytest.raises(ValueError):  # the others' all-zero mask is shared: not even on request
        enc.frozen_mask(g, other).flags.writeable = True
    # the copying methods still hand out the caller's own arrays
    assert enc.observation(g, me).flags.writeable and enc.mask(g, me).flags.writeable


def test_dropped_arrays_are_written_again():
    """A loop that holds only its last observation (as PettingZoo's `obs, ... = env.last()`
    does while it asks for the next) gets at most two vectors per faction and two masks: no
    copy per step."""
    g, rng = _random_game(7)
    enc = GameEncoder()
    vectors, masks = set(), set()
    obs = None
    for _ in range(300):
        if g.is_over:
            break
        p = g.to_move
        obs = {"observation": enc.frozen_observation(g, p), "action_mask": enc.frozen_mask(g, p)}
        vectors.add((p, id(obs["observation"])))
        masks.add(id(obs["action_mask"]))
        g.apply(rng.choice(g.legal_actions()))
    assert obs is not None
    assert len(vectors) <= 2 * g.state.n and len(masks) <= 2


def test_without_reference_counts_every_array_is_kept(monkeypatch):
    """Where reference counts cannot tell (not CPython), every array handed out is taken as
    kept: the next one is a copy, and the numbers are the same."""
    monkeypatch.setattr(incremental, "_RECYCLE", False)
    ref = ObservationEncoder()
    g, rng = _random_game(8)
    enc = GameEncoder()
    seen = []
    for _ in range(120):
        if g.is_over:
            break
        p = g.to_move
        x, m = enc.frozen_observation(g, p), enc.frozen_mask(g, p)
        assert np.array_equal(x, ref.encode(g, p)) and np.array_equal(m, legal_mask(g, p))
        seen.append((x, x.copy()))
        g.apply(rng.choice(g.legal_actions()))
    assert all(np.array_equal(x, copy) for x, copy in seen)


def test_pettingzoo_observations_kept_across_steps():
    """Through the environment: observations kept by the caller over many steps are unchanged."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import env
    e = env(players=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    kept = []
    for n, _agent in enumerate(e.agent_iter(max_iter=600)):
        obs, _, terminated, truncated, _ = e.last()
        if n % 5 == 0:
            kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    for obs, copy in kept:
        assert all(np.array_equal(obs[k], copy[k]) for k in copy)
