#!/usr/bin/env python3
"""Train a masked policy (sb3-contrib's MaskablePPO) against random opponents, on the CPU.

    pip install -e '.[rl,train]'        # torch 2.13 (CPU build) and sb3-contrib
    python examples/train_maskable_ppo.py --minutes 5
    python examples/train_maskable_ppo.py --timesteps 50000 --eval-games 200 --out out/ppo

The learner plays seat 0 of a 3-player Legendary game (`cyclades.env.gym.CycladesEnv`, a
random board, `max_cycles` 100) against two `random` bots; the reward is 1 for a win and 0
for a loss at the end of the game (a shared win is split), nothing before. Its observation is
the fixed float32 vector and its action one slot of the fixed action space, masked to the
legal ones (`CycladesEnv.action_masks()`, which MaskablePPO reads).

Before training and after, the policy plays `--eval-games` games against random opponents (new
seeds, the policy's actions sampled; `--deterministic` for its most likely ones): its win rate
with a 95% Wilson interval. Par for 3 players against random play is 1/3. Into `--out`
(default out/maskable_ppo): `model.zip` and `vecnormalize.pkl` (the observation scaling the
policy was trained with, `VecNormalize.load`), `learning_curve.png` (the win rate of the
training games over the timesteps, moving average) and `results.json` (every figure).
"""
import argparse
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))  # this checkout's cyclades

PLAYERS = 3


def wilson(successes, n, z=1.959964):
    """95% Wilson score interval of a proportion (successes may be fractional: a shared win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_env(seed=None, max_cycles=100):
    from cyclades.env.gym import CycladesEnv
    return CycladesEnv(players=PLAYERS, seat=0, opponents="random", max_cycles=max_cycles)


def evaluate(model, games, seed, deterministic=False, max_cycles=100, normalize=None):
    """Win rate of `model` over `games` games against random opponents (seeds seed, seed+1...);
    `normalize`: the training's observation scaling (VecNormalize.normalize_obs)."""
    env = make_env(max_cycles=max_cycles)
    total = 0.0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        while True:
            action, _ = model.predict(normalize(obs) if normalize else obs,
                                      action_masks=env.action_masks(), deterministic=deterministic)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                total += reward
                break
    low, high = wilson(total, games)
    return {"games": games, "wins": total, "win_rate": total / games, "ci95": [low, high]}


def learning_curve(episodes, path, window):
    """PNG of the training games' win rate (moving average over `window` games)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    if episodes:
        steps = [e["t"] for e in episodes]
        rewards = [e["r"] for e in episodes]
        w = max(1, min(window, len(rewards)))
        avg = [sum(rewards[max(0, i - w + 1):i + 1]) / (i + 1 - max(0, i - w + 1))
               for i in range(len(rewards))]
        ax.plot(steps, rewards, ".", alpha=0.15, color="grey", label="game (1 win, 0 loss)")
        ax.plot(steps, avg, color="C0", label=f"win rate, last {w} games")
    ax.axhline(1 / PLAYERS, color="C3", linestyle="--", label="par against random (1/3)")
    ax.set_xlabel("timesteps (learner decisions)")
    ax.set_ylabel("win rate")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("MaskablePPO, seat 0 of 3, against random opponents")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def train(args):
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    torch.set_num_threads(args.threads)
    # The masked distribution over ~20,000 slots is made at every step: skip its argument checks
    torch.distributions.Distribution.set_default_validate_args(False)
    os.makedirs(args.out, exist_ok=True)
    venv = DummyVecEnv([lambda k=k: Monitor(make_env(max_cycles=args.max_cycles))
                        for k in range(args.envs)])
    venv.seed(args.seed)
    # Counts (GP, troops, cycle...) are raw in the observation: scale each number by its running
    # mean and deviation (the rewards stay 0 and 1)
    venv = VecNormalize(venv, norm_obs=True, norm_reward=False, gamma=0.999)
    n_steps = max(16, min(args.n_steps, args.timesteps // args.envs if args.timesteps else args.n_steps))
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=min(args.batch, n_steps * args.envs),
                        n_epochs=args.epochs, learning_rate=args.lr, ent_coef=0.01, gamma=0.999,
                        seed=args.seed,
                        policy_kwargs={"net_arch": [64, 64]}, device="cpu", verbose=0)

    print(f"evaluating the untrained policy over {args.eval_games} games...", flush=True)
    before = evaluate(model, args.eval_games, 10_000_000, args.deterministic, args.max_cycles,
                      venv.normalize_obs)
    print(f"  before: win rate {before['win_rate']:.1%}, 95% CI "
          f"[{before['ci95'][0]:.1%}, {before['ci95'][1]:.1%}]", flush=True)

    episodes = []

    class Progress(BaseCallback):
        """Records each finished training game; stops at the time budget."""

        def __init__(self, deadline):
            super().__init__()
            self.deadline = deadline
            self.last_print = time.time()

        def _on_step(self):
            for info in self.locals.get("infos", ()):
                ep = info.get("episode")
                if ep:
                    episodes.append({"t": self.num_timesteps, "r": float(ep["r"]), "l": int(ep["l"])})
            if time.time() - self.last_print > 30:
                self.last_print = time.time()
                recent = episodes[-50:]
                rate = sum(e["r"] for e in recent) / len(recent) if recent else float("nan")
                print(f"  {self.num_timesteps} timesteps, {len(episodes)} games, "
                      f"win rate of the last {len(recent)}: {rate:.0%}", flush=True)
            return self.deadline is None or time.time() < self.deadline

    budget = args.minutes * 60 if args.minutes else None
    total = args.timesteps if args.timesteps else 10**9
    print(f"training for {f'{args.minutes:g} minutes' if budget else f'{total} timesteps'}...",
          flush=True)
    t0 = time.time()
    model.learn(total_timesteps=total, callback=Progress(t0 + budget if budget else None))
    seconds = time.time() - t0
    steps = model.num_timesteps
    print(f"  {steps} timesteps, {len(episodes)} training games in {seconds:.0f} s "
          f"({steps / seconds:,.0f} timesteps/s)", flush=True)
    model.save(os.path.join(args.out, "model.zip"))
    venv.save(os.path.join(args.out, "vecnormalize.pkl"))

    print(f"evaluating the trained policy over {args.eval_games} games...", flush=True)
    after = evaluate(model, args.eval_games, 10_000_000, args.deterministic, args.max_cycles,
                     venv.normalize_obs)
    print(f"  after: win rate {after['win_rate']:.1%}, 95% CI "
          f"[{after['ci95'][0]:.1%}, {after['ci95'][1]:.1%}]  (par {1 / PLAYERS:.1%})", flush=True)

    learning_curve(episodes, os.path.join(args.out, "learning_curve.png"), args.window)
    results = {"players": PLAYERS, "opponents": "random", "timesteps": steps,
               "training_seconds": seconds, "timesteps_per_s": steps / seconds,
               "training_games": len(episodes), "before": before, "after": after,
               "deterministic": args.deterministic, "seed": args.seed, "n_steps": n_steps,
               "envs": args.envs, "learning_rate": args.lr, "batch": args.batch,
               "epochs": args.epochs, "episodes": episodes}
    with open(os.path.join(args.out, "results.json"), "w") as fh:
        json.dump(results, fh, indent=1)
    print(f"wrote {args.out}/model.zip, vecnormalize.pkl, learning_curve.png, results.json")
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=None,
                        help="train for this long (default: 5 minutes)")
    budget.add_argument("--timesteps", type=int, default=None, help="train for this many steps")
    ap.add_argument("--eval-games", type=int, default=100,
                    help="games against random opponents before and after (default 100)")
    ap.add_argument("--deterministic", action="store_true",
                    help="evaluate the policy's most likely actions instead of sampled ones")
    ap.add_argument("--envs", type=int, default=2, help="games played side by side (default 2)")
    ap.add_argument("--n-steps", type=int, default=512,
                    help="timesteps per environment between updates (default 512)")
    ap.add_argument("--batch", type=int, default=256, help="minibatch size (default 256)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    ap.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    ap.add_argument("--max-cycles", type=int, default=100,
                    help="a game still going then ends with the tie-breaks (default 100)")
    ap.add_argument("--window", type=int, default=100, help="games in the curve's moving average")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=os.path.join("out", "maskable_ppo"),
                    help="directory for model.zip, learning_curve.png, results.json")
    args = ap.parse_args(argv)
    if args.minutes is None and args.timesteps is None:
        args.minutes = 5.0
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        print("needs the train extra: pip install -e '.[rl,train]' (torch==2.13.0, sb3-contrib)")
        return None
    return train(args)


if __name__ == "__main__":
    main()
