#!/usr/bin/env python3
"""Train a masked policy (sb3-contrib's MaskablePPO) against random opponents, on the CPU.

    pip install -e '.[rl,train]'        # torch 2.13 (CPU build) and sb3-contrib
    python examples/train_maskable_ppo.py                 # 120,000 timesteps: about 10 minutes
    python examples/train_maskable_ppo.py --minutes 5
    python examples/train_maskable_ppo.py --timesteps 100000 --eval-games 200 --out out/ppo

The learner plays seat 0 of a 3-player Legendary game (`cyclades.env.gym.CycladesEnv`, a
random board, `max_cycles` 100) against two `random` bots. Its observation is the fixed
float32 vector, scaled by `VecNormalize`, and its action one slot, masked to the legal ones
(`action_masks()`, which MaskablePPO reads). Two choices make a few minutes of CPU enough:

- Reward (`--reward`): a win is 1 and a loss 0 at the end of the game; "shaped" (the default)
  adds potential-based shaping from the agents' heuristic at every decision (the learner's
  win chance by `cyclades.agents.evaluation.win_chances`, see `CycladesEnv`), which keeps the
  best policy the same but tells the learner after each decision whether its position got
  better. Evaluation always counts real wins only.
- Actions (`--actions`): "compact" (the default) trains over the slots that random 3-player
  games use (`used_slots`, from `--slot-games` games on seeds of their own) plus one "another
  legal action" (`CompactActions`): about 2,600 logits instead of ~21,500, three to four
  times faster per timestep; "full" uses the whole fixed action space.

Every `--check-every` timesteps the policy plays `--check-games` validation games against
random opponents (seeds of their own) and the best so far is kept, with its observation
scaling: a training curve rises and then often drifts back, and the policy at its best is the
one worth keeping (as Stable-Baselines3's EvalCallback keeps its best model). Before training
and after, a policy plays `--eval-games` games against random opponents on seeds no training or
validation game used, with the real win/loss reward (the policy's actions sampled;
`--deterministic` for its most likely ones): its win rate with a 95% Wilson interval. "after" is
the policy kept, "last" the policy at the end of training. Par for 3 players against random
play is 1/3. Into `--out` (default out/maskable_ppo): `model.zip`,
`vecnormalize.pkl` (the observation scaling the policy was trained with, `VecNormalize.load`),
`slots.json` (the compact action space), `learning_curve.png` (the training games' win rate
over the timesteps, with the validation checks and the two evaluations) and `results.json`
(every figure). The directory is an agent: `ppo:path=DIR` plays it in `cyclades tournament`,
`cyclades ladder` and `make_agent` (`cyclades.env.policy`).

Self-play (`--league N`): the opponents are drawn, game by game, from the last N frozen copies
of the policy itself (a copy every `--league-every` timesteps, network and observation scaling
together), each seat a past policy with probability `--league-share`, else a random bot: a
league in its simplest form, so that the learner meets opponents that improve with it. Its
evaluation is still against random bots (and, through `ppo:path=`, against any level).
"""
import argparse
import copy
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))  # this checkout's cyclades

PLAYERS = 3
EVAL_SEED = 10_000_000     # evaluation games: seeds EVAL_SEED, EVAL_SEED + 1, ...
SLOT_SEED = 20_000_000     # the games that find the compact action space's slots
CHECK_SEED = 30_000_000    # the validation games that choose the policy kept
MAX_DECISIONS = 2_000      # an evaluation game this long is stopped and lost: a deterministic
                           # policy can repeat itself forever (choose a move, cancel it, ...)


def wilson(successes, n, z=1.959964):
    """95% Wilson score interval of a proportion (successes may be fractional: a shared win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_env(max_cycles=100, reward="win", gamma=0.99, slots=None, opponents="random"):
    """The learner's game: seat 0 of 3 against `opponents` (random bots, or a function of the
    game's seed making each opponent: the league); over `slots` if given."""
    from cyclades.env.gym import CompactActions, CycladesEnv
    env = CycladesEnv(players=PLAYERS, seat=0, opponents=opponents, max_cycles=max_cycles,
                      reward=reward, shaping_gamma=gamma)
    return env if slots is None else CompactActions(env, slots)


class League:
    """Self-play against frozen copies of oneself, in its simplest form: every `every`
    timesteps the policy (its network and observation scaling) is copied into a pool of the
    last `size`; each opponent of a training game is, with probability `share`, a copy drawn
    from the pool (`cyclades.env.policy.PolicyAgent`), else a random bot."""

    def __init__(self, size, every, share, slots):
        self.size, self.every, self.share, self.slots = size, every, share, slots
        self.pool = []          # (timesteps, Policy), oldest first
        self.games = [0, 0]     # opponents drawn: past policies, random bots

    def snapshot(self, model, venv, t):
        from cyclades.env.policy import Policy
        frozen = copy.deepcopy(model.policy)
        frozen.set_training_mode(False)
        rms = venv.obs_rms
        self.pool.append((t, Policy(frozen, rms.mean.copy(), rms.var.copy(), venv.clip_obs, venv.epsilon,
                                    self.slots, source=f"{t} timesteps")))
        del self.pool[:-self.size]

    def opponent(self, seed):
        """An opponent for one game (CycladesEnv calls this at each reset with a seed of its own)."""
        import random

        from cyclades.agents import make_agent
        from cyclades.env.policy import PolicyAgent
        rng = random.Random(seed)
        if self.pool and rng.random() < self.share:
            self.games[0] += 1
            return PolicyAgent(seed=seed, policy=rng.choice(self.pool)[1])
        self.games[1] += 1
        return make_agent("random", seed=seed)


def evaluate(model, games, seed, deterministic=False, max_cycles=100, normalize=None, slots=None):
    """Win rate of `model` over `games` games against random opponents (seeds seed, seed+1...),
    counting real results only; `normalize`: the training's observation scaling
    (VecNormalize.normalize_obs); `slots`: the compact action space it was trained over."""
    env = make_env(max_cycles=max_cycles, reward="win", slots=slots)
    total, stopped = 0.0, 0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        for _ in range(MAX_DECISIONS):
            action, _ = model.predict(normalize(obs) if normalize else obs,
                                      action_masks=env.action_masks(), deterministic=deterministic)
            obs, _, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                total += info.get("outcome", 0.0)
                break
        else:
            stopped += 1
    low, high = wilson(total, games)
    return {"games": games, "wins": total, "win_rate": total / games, "ci95": [low, high],
            "stopped": stopped}


def learning_curve(episodes, path, window, before=None, after=None, checks=(), kept=None):
    """PNG of the training games' win rate (moving average over `window` games), the
    validation checks and the evaluations before and after training (95% Wilson intervals);
    `after` is drawn at the timesteps of the policy kept."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4))
    if episodes:
        steps = [e["t"] for e in episodes]
        wins = [e["r"] for e in episodes]
        w = max(1, min(window, len(wins)))
        first = min(w, 20) - 1   # the average of the first few games says little: start later
        avg = [sum(wins[max(0, i - w + 1):i + 1]) / (i + 1 - max(0, i - w + 1)) for i in range(first, len(wins))]
        ax.plot(steps, wins, ".", alpha=0.1, color="grey", label="training game (1 win, 0 loss)")
        ax.plot(steps[first:], avg, color="C0", label=f"training win rate, last {w} games")
    if checks:
        ax.plot([c["t"] for c in checks], [c["win_rate"] for c in checks], "s--", color="C4",
                markersize=4, linewidth=1, label=f"validation check ({checks[0]['games']} games)")
    end = kept["t"] if kept else (episodes[-1]["t"] if episodes else 0)
    for label, r, t, colour in (("before", before, 0, "C1"), ("after", after, end, "C2")):
        if r:
            lo, hi = r["ci95"]
            ax.errorbar([t], [r["win_rate"]], yerr=[[r["win_rate"] - lo], [hi - r["win_rate"]]],
                        fmt="o", color=colour, capsize=4,
                        label=f"evaluation {label}: {r['win_rate']:.0%} of {r['games']} (95% CI)")
    ax.axhline(1 / PLAYERS, color="C3", linestyle="--", label="par against random (1/3)")
    ax.set_xlabel("timesteps (learner decisions)")
    ax.set_ylabel("win rate")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title("MaskablePPO, seat 0 of 3, against random opponents")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report(label, r):
    print(f"  {label}: win rate {r['win_rate']:.1%}, 95% CI [{r['ci95'][0]:.1%}, {r['ci95'][1]:.1%}] "
          f"over {r['games']} games  (par {1 / PLAYERS:.1%})", flush=True)


def train(args):  # noqa: C901  (the script's whole run, step by step)
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    from cyclades.env.gym import used_slots

    torch.set_num_threads(args.threads)
    # The masked distribution is made at every step: skip its argument checks
    torch.distributions.Distribution.set_default_validate_args(False)
    os.makedirs(args.out, exist_ok=True)
    t_start = time.time()
    slots = None
    if args.actions == "compact":
        if args.slot_games is None:  # a short run meets fewer actions and needs fewer
            args.slot_games = min(200, max(5, args.timesteps // 250)) if args.timesteps else 200
        slots = used_slots(args.slot_games, seed=SLOT_SEED, players=PLAYERS, max_cycles=args.max_cycles)
        print(f"compact action space: {len(slots)} slots (from {args.slot_games} random games) "
              f"+ another legal action, {time.time() - t_start:.0f} s", flush=True)
        with open(os.path.join(args.out, "slots.json"), "w") as fh:
            json.dump([int(s) for s in slots], fh)
    league = League(args.league, args.league_every or args.check_every or 10_000, args.league_share,
                    slots) if args.league else None
    opponents = league.opponent if league else "random"
    venv = DummyVecEnv([lambda: Monitor(make_env(args.max_cycles, args.reward, args.gamma, slots, opponents))
                        for _ in range(args.envs)])
    venv.seed(args.seed)
    # Counts (GP, troops, cycle...) are raw in the observation: scale each number by its running
    # mean and deviation (the rewards are left as they are)
    venv = VecNormalize(venv, norm_obs=True, norm_reward=False, gamma=args.gamma)
    n_steps = max(16, min(args.n_steps, args.timesteps // args.envs if args.timesteps else args.n_steps))
    model = MaskablePPO("MlpPolicy", venv, n_steps=n_steps, batch_size=min(args.batch, n_steps * args.envs),
                        n_epochs=args.epochs, learning_rate=args.lr, ent_coef=args.ent_coef,
                        gamma=args.gamma, seed=args.seed, policy_kwargs={"net_arch": args.net},
                        device="cpu", verbose=0)

    def play(games, seed):
        """The policy now, with the observation scaling now, against random opponents."""
        return evaluate(model, games, seed, args.deterministic, args.max_cycles, venv.normalize_obs, slots)

    print(f"evaluating the untrained policy over {args.eval_games} games...", flush=True)
    before = play(args.eval_games, EVAL_SEED)
    report("before", before)

    episodes = []
    checks = []   # the validation games' results over the timesteps
    kept = {}     # the best policy so far: its weights, observation scaling, check

    def check(t):
        """Validation games now; keep the policy if it is the best so far."""
        r = play(args.check_games, CHECK_SEED)
        r["t"] = t
        checks.append(r)
        if not kept or r["win_rate"] > kept["check"]["win_rate"]:
            kept.update(weights=copy.deepcopy(model.policy.state_dict()),
                        scaling=copy.deepcopy(venv.obs_rms), check=r)
        print(f"  check at {t} timesteps: {r['win_rate']:.0%} of {r['games']} validation games"
              f"{' (best so far: kept)' if kept['check'] is r else ''}", flush=True)

    class Progress(BaseCallback):
        """Records each finished training game's real result, checks the policy every
        `--check-every` timesteps; stops at the time budget."""

        def __init__(self, deadline):
            super().__init__()
            self.deadline = deadline
            self.last_print = time.time()
            self.next_check = args.check_every or None
            self.next_snapshot = league.every if league else None

        def _on_step(self):
            for info in self.locals.get("infos", ()):
                ep = info.get("episode")
                if ep:
                    episodes.append({"t": self.num_timesteps, "r": float(info.get("outcome", 0.0)),
                                     "return": round(float(ep["r"]), 4), "l": int(ep["l"])})
            if self.next_check and self.num_timesteps >= self.next_check:
                self.next_check += args.check_every
                check(self.num_timesteps)
            if self.next_snapshot and self.num_timesteps >= self.next_snapshot:
                self.next_snapshot += league.every
                league.snapshot(self.model, venv, self.num_timesteps)
            if time.time() - self.last_print > 30:
                self.last_print = time.time()
                recent = episodes[-100:]
                rate = sum(e["r"] for e in recent) / len(recent) if recent else float("nan")
                print(f"  {self.num_timesteps} timesteps, {len(episodes)} games, "
                      f"win rate of the last {len(recent)}: {rate:.0%}", flush=True)
            return self.deadline is None or time.time() < self.deadline

    budget = args.minutes * 60 if args.minutes else None
    total = args.timesteps if args.timesteps else 10**9
    print(f"training for {f'{args.minutes:g} minutes' if budget else f'{total} timesteps'}...", flush=True)
    t0 = time.time()
    model.learn(total_timesteps=total, callback=Progress(t0 + budget if budget else None))
    seconds = time.time() - t0
    steps = model.num_timesteps
    print(f"  {steps} timesteps, {len(episodes)} training games in {seconds:.0f} s "
          f"({steps / seconds:,.0f} timesteps/s)", flush=True)
    last = None
    if args.check_every:
        if not checks or checks[-1]["t"] != steps:
            check(steps)  # the last policy is a candidate too (once: a check may have just run)
        if kept["check"] is not checks[-1]:
            print(f"evaluating the last policy over {args.eval_games} games...", flush=True)
            last = play(args.eval_games, EVAL_SEED)
            report("last", last)
            model.policy.load_state_dict(kept["weights"])
            venv.obs_rms = kept["scaling"]
        print(f"kept the policy of {kept['check']['t']} timesteps (validation "
              f"{kept['check']['win_rate']:.0%} of {kept['check']['games']})", flush=True)
    model.save(os.path.join(args.out, "model.zip"))
    venv.save(os.path.join(args.out, "vecnormalize.pkl"))

    print(f"evaluating the policy kept over {args.eval_games} games...", flush=True)
    after = play(args.eval_games, EVAL_SEED)
    report("after", after)
    if last is None:
        last = after

    learning_curve(episodes, os.path.join(args.out, "learning_curve.png"), args.window, before,
                   after, checks, kept.get("check"))
    results = {"players": PLAYERS, "opponents": "random", "timesteps": steps,
               "training_seconds": seconds, "timesteps_per_s": steps / seconds,
               "wall_seconds": time.time() - t_start, "load_average": os.getloadavg(),
               "training_games": len(episodes), "before": before, "after": after, "last": last,
               "checks": checks, "kept_timesteps": kept["check"]["t"] if kept else steps,
               "check_every": args.check_every, "check_games": args.check_games,
               "reward": args.reward, "actions": args.actions, "slot_games": args.slot_games,
               "slots": None if slots is None else len(slots), "deterministic": args.deterministic,
               "seed": args.seed, "n_steps": n_steps, "envs": args.envs, "learning_rate": args.lr,
               "batch": args.batch, "epochs": args.epochs, "gamma": args.gamma,
               "ent_coef": args.ent_coef, "net": args.net,
               "league": None if not league else {
                   "size": league.size, "every": league.every, "share": league.share,
                   "snapshots": [t for t, _ in league.pool], "opponents_past_policy": league.games[0],
                   "opponents_random": league.games[1]},
               "episodes": episodes}
    with open(os.path.join(args.out, "results.json"), "w") as fh:
        json.dump(results, fh, indent=1)
    print(f"wrote {args.out}/model.zip, vecnormalize.pkl, slots.json, learning_curve.png, results.json"
          if slots is not None else
          f"wrote {args.out}/model.zip, vecnormalize.pkl, learning_curve.png, results.json")
    print(f"play it: cyclades ladder --agents random,beginner,casual,ppo:path={args.out}")
    return results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=None,
                        help="train for this long (instead of --timesteps)")
    budget.add_argument("--timesteps", type=int, default=None,
                        help="train for this many steps (default 120,000: about 10 minutes on a "
                             "free core, where every run of three seeds beat random clearly)")
    ap.add_argument("--eval-games", type=int, default=200,
                    help="games against random opponents before and after (default 200)")
    ap.add_argument("--check-every", type=int, default=10000,
                    help="validation games every this many timesteps, the best policy kept "
                         "(default 10000; 0: keep the last policy)")
    ap.add_argument("--check-games", type=int, default=100,
                    help="validation games at each check (default 100)")
    ap.add_argument("--deterministic", action="store_true",
                    help="evaluate the policy's most likely actions instead of sampled ones")
    ap.add_argument("--reward", choices=("shaped", "win"), default="shaped",
                    help="training reward: win/loss plus heuristic shaping (default), or win/loss only")
    ap.add_argument("--actions", choices=("compact", "full"), default="compact",
                    help="the slots random games use plus 'another' (default), or all ~21,500")
    ap.add_argument("--slot-games", type=int, default=None,
                    help="random games that find the compact action space (default 200; "
                         "fewer for fewer than 50,000 timesteps)")
    ap.add_argument("--envs", type=int, default=2, help="games played side by side (default 2)")
    ap.add_argument("--n-steps", type=int, default=512,
                    help="timesteps per environment between updates (default 512)")
    ap.add_argument("--batch", type=int, default=256, help="minibatch size (default 256)")
    ap.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    ap.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    ap.add_argument("--gamma", type=float, default=0.99, help="discount, also the shaping's (default 0.99)")
    ap.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus (default 0.01)")
    ap.add_argument("--net", type=int, nargs="+", default=[64, 64],
                    help="hidden layers of the policy and value networks (default 64 64)")
    ap.add_argument("--league", type=int, default=0, metavar="N",
                    help="self-play: opponents drawn from the last N frozen copies of the policy "
                         "(and random bots), instead of random bots only (default 0: off)")
    ap.add_argument("--league-every", type=int, default=None,
                    help="timesteps between two copies into the league (default --check-every)")
    ap.add_argument("--league-share", type=float, default=0.5,
                    help="chance that an opponent seat is a past policy once the pool has one "
                         "(default 0.5; the others are random bots)")
    ap.add_argument("--max-cycles", type=int, default=100,
                    help="a game still going then ends with the tie-breaks (default 100)")
    ap.add_argument("--window", type=int, default=100, help="games in the curve's moving average")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=os.path.join("out", "maskable_ppo"),
                    help="directory for model.zip, learning_curve.png, results.json")
    args = ap.parse_args(argv)
    if not 0.0 <= args.league_share <= 1.0:
        ap.error("--league-share is a probability from 0 to 1")
    for name, least in (("eval_games", 1), ("check_games", 1), ("check_every", 0), ("league", 0)):
        if getattr(args, name) < least:
            ap.error(f"--{name.replace('_', '-')} must be at least {least}")
    if args.minutes is None and args.timesteps is None:
        args.timesteps = 120_000
    try:
        import sb3_contrib  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        print("needs the train extra: pip install -e '.[rl,train]' (torch==2.13.0, sb3-contrib)")
        return None
    return train(args)


if __name__ == "__main__":
    main()
