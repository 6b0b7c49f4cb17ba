"""The Gymnasium environment's shaped reward and compact action space, which make a
few minutes of MaskablePPO on a CPU enough to beat random players (examples/train_maskable_ppo.py)."""
import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="gymnasium is not installed (extra 'rl')")

from cyclades.agents.evaluation import win_chances
from cyclades.env.gym import CompactActions, CycladesEnv, used_slots


def play(env, seed, pick=None):
    """One game with uniformly random legal actions: (rewards, last info)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal) if pick is None else pick(legal)))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info


def test_the_win_reward_comes_at_the_end_and_is_the_outcome():
    rewards, info = play(CycladesEnv(players=3, max_cycles=3), seed=4)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == info["outcome"] and info["outcome"] in (0.0, 0.5, 1.0 / 3, 1.0)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_shaping_adds_up_to_minus_the_first_potential(seed):
    """Potential-based shaping (undiscounted here): along a game the shaping terms telescope to
    -Phi(start), the same for every policy, so the best policy is unchanged."""
    env = CycladesEnv(players=3, max_cycles=3, reward="shaped", shaping_gamma=1.0)
    env.reset(seed=seed)
    start = win_chances(env.game)[0]
    assert 0 < start < 1
    rewards, info = play(env, seed)
    assert any(r != 0 for r in rewards[:-1])   # a signal at every decision, not only the last
    assert sum(rewards) == pytest.approx(info["outcome"] - start, abs=1e-9)


def test_the_discounted_shaping_is_gamma_phi_next_minus_phi():
    env = CycladesEnv(players=3, max_cycles=3, reward="shaped", shaping_gamma=0.9)
    env.reset(seed=5)
    before = win_chances(env.game)[0]
    _, reward, terminated, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert not terminated
    assert reward == pytest.approx(0.9 * win_chances(env.game)[0] - before)


def test_an_unknown_reward_is_refused():
    with pytest.raises(ValueError, match="reward"):
        CycladesEnv(players=3, reward="points")


def test_the_compact_action_space_reaches_every_legal_action():
    """Over the slots of a few random games plus 'another legal action', a game plays to its end;
    over no slots at all every decision goes through 'another legal action'."""
    slots = used_slots(2, seed=0, players=3, max_cycles=2)
    assert len(slots) and np.all(np.diff(slots) > 0)
    env = CompactActions(CycladesEnv(players=3, max_cycles=3), slots)
    assert env.action_space.n == len(slots) + 1
    _, info = env.reset(seed=9)
    mask = env.action_masks()
    assert mask.shape == (len(slots) + 1,) and mask.any()
    assert np.array_equal(info["action_mask"], mask.astype(np.int8))
    full = env.unwrapped.action_masks()
    assert mask[:-1].tolist() == full[slots].tolist()
    for a in np.flatnonzero(mask[:-1]):
        assert full[env.full_action(a)]
    play(env, seed=9)

    bare = CompactActions(CycladesEnv(players=3, max_cycles=2), [])
    bare.reset(seed=3)
    assert bare.action_masks().tolist() == [True]
    rewards, info = play(bare, seed=3, pick=lambda legal: 0)
    assert "outcome" in info and min(rewards) >= 0   # never an illegal action


def test_another_legal_action_when_there_is_none_is_an_illegal_action():
    """With every legal slot in the compact space, "another legal action" is masked out, and
    choosing it anyway is answered like any illegal action: a penalty, the game unchanged."""
    env = CompactActions(CycladesEnv(players=3, max_cycles=2), [])
    env.reset(seed=2)
    env = CompactActions(env.unwrapped, np.flatnonzero(env.unwrapped.action_masks()))
    mask = env.action_masks()
    assert mask[:-1].all() and not mask[-1]
    _, reward, terminated, _, info = env.step(env.other)
    assert reward == -1.0 and info["invalid_action"] and not terminated


def test_an_unknown_reward_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="reward is one of"):
        CycladesEnv(reward="bogus")


@pytest.mark.parametrize("slots", [[-1, 5], [22463], [2.5], ["a"]])
def test_compact_slots_outside_the_action_space_are_refused(slots):
    """A negative slot read the mask from its end (the last slot's legality for slot -1), 2.5
    became slot 2, and a slot past the end an IndexError at the first mask."""
    with pytest.raises(ValueError, match=r"slots are whole numbers, indexes of the action space 0\.\.22462"):
        CompactActions(CycladesEnv(players=3), slots)

