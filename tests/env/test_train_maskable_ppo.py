"""The MaskablePPO example's options (shaped reward, compact action space) and its
evaluation, on tiny budgets (tests/env/test_env.py runs it with its defaults)."""
import importlib.util
import json

import numpy as np
import pytest
from repository import ROOT

EXAMPLE = ROOT / "examples" / "train_maskable_ppo.py"


@pytest.fixture(scope="module")
def example():
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    pytest.importorskip("torch", reason="torch is not installed (extra 'train')")
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("reward, actions", [("shaped", "compact"), ("win", "full")])
def test_the_example_trains_with_either_reward_and_action_space(example, tmp_path, reward, actions):
    out = tmp_path / "run"
    results = example.main(["--timesteps", "64", "--n-steps", "32", "--envs", "1", "--eval-games", "2",
                            "--max-cycles", "2", "--slot-games", "2", "--check-games", "2", "--reward", reward,
                            "--actions", actions, "--out", str(out)])
    assert results["reward"] == reward and results["actions"] == actions
    assert all(e["r"] in (0.0, 0.5, 1 / 3, 1.0) for e in results["episodes"])  # real results, not shaped returns
    assert results["after"]["stopped"] == 0
    if actions == "compact":
        assert len(json.loads((out / "slots.json").read_text())) == results["slots"] > 0
    else:
        assert results["slots"] is None and not (out / "slots.json").exists()
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_endless_evaluation_game_is_stopped_and_lost(example, monkeypatch):
    """A deterministic policy can repeat itself forever: past MAX_DECISIONS the game is a loss."""

    class FirstLegal:
        def predict(self, obs, action_masks, deterministic):
            return int(np.flatnonzero(action_masks)[0]), None

    monkeypatch.setattr(example, "MAX_DECISIONS", 1)
    r = example.evaluate(FirstLegal(), games=2, seed=0, max_cycles=2)
    assert r["stopped"] == 2 and r["wins"] == 0 and r["ci95"][0] == 0


def test_the_best_checked_policy_is_kept(example, tmp_path):
    """Validation games every --check-every timesteps (the last step's once, though the last
    policy is always checked); the policy with the best validation win rate (the first of
    equals) is the one saved and evaluated as "after"; "last" is the policy at the end of
    training, on the same evaluation seeds."""
    out = tmp_path / "run"
    results = example.main(["--timesteps", "128", "--n-steps", "32", "--envs", "1", "--eval-games", "3",
                            "--check-every", "32", "--check-games", "3", "--max-cycles", "2",
                            "--slot-games", "2", "--deterministic", "--out", str(out)])
    checks = results["checks"]
    assert [c["t"] for c in checks] == [32, 64, 96, 128]  # every 32: the last policy once
    best = max(checks, key=lambda c: c["win_rate"])
    assert results["kept_timesteps"] == best["t"]
    assert all(c["games"] == 3 and 0 <= c["ci95"][0] <= c["win_rate"] <= c["ci95"][1] <= 1 for c in checks)
    assert results["last"]["games"] == results["after"]["games"] == 3
    if best is checks[-1]:
        assert results["last"] == results["after"]
    # the files saved are the policy kept and its scaling: they play the evaluation games
    # (deterministic actions, seeded opponents) to the same result
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize
    slots = json.loads((out / "slots.json").read_text())
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    scaling = VecNormalize.load(out / "vecnormalize.pkl", DummyVecEnv([lambda: example.make_env(2, slots=slots)]))
    again = example.evaluate(model, 3, example.EVAL_SEED, deterministic=True, max_cycles=2,
                             normalize=scaling.normalize_obs, slots=slots)
    assert again == results["after"]


def test_the_league_plays_frozen_copies_of_the_policy(example, tmp_path, capsys):
    """--league N: every --league-every timesteps a frozen copy of the policy joins a pool of
    the last N, and the opponents of later training games are drawn from it (all of them with
    --league-share 1); the closing lines name every file written and how to play the policy."""
    out = tmp_path / "run"
    results = example.main(["--timesteps", "128", "--n-steps", "32", "--envs", "1", "--eval-games", "2",
                            "--check-every", "32", "--check-games", "2", "--max-cycles", "2", "--slot-games", "2",
                            "--league", "2", "--league-every", "32", "--league-share", "1", "--out", str(out)])
    league = results["league"]
    assert league["size"] == 2 and league["snapshots"] == [96, 128]
    assert league["opponents_past_policy"] > 0 and league["opponents_random"] > 0  # random before the first copy
    text = capsys.readouterr().out
    assert "slots.json" in text.split("wrote ")[-1] and f"ppo:path={out}" in text


@pytest.mark.parametrize("option, value", [("--league-share", "1.5"), ("--league", "-1"),
                                           ("--check-every", "-5"), ("--check-games", "0"),
                                           ("--eval-games", "0"), ("--check-games", "x")])
def test_a_bad_count_is_refused_before_anything_runs(example, tmp_path, capsys, option, value):
    """A count that cannot work (no games to rate a policy by, checks every negative step) is a
    usage error naming the option; nothing is written."""
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        example.main(["--timesteps", "64", option, value, "--out", str(out)])
    assert exit_info.value.code == 2
    assert option in capsys.readouterr().err
    assert not out.exists()
