"""Cyclades as a Gymnasium environment for one learner against `cyclades.agents` bots.

    from cyclades.env.gym import CycladesEnv
    env = CycladesEnv(players=3, seat=0, opponents="random")
    # or gymnasium.make("cyclades/Cyclades-v0", players=3): registered once cyclades is installed
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(env.action_masks().astype("int8"))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The learner plays seat `seat`: one faction, or with 2 players both factions of that
player (R22: seat k plays factions k and k+2). Every other faction is played by an agent
made with `cyclades.agents.make_agent(name, seed)`; teammates in team play too.
Observations are the learner's float32 vectors (`encoding.ObservationEncoder`), actions
indexes of the fixed action space; `action_masks()` (sb3-contrib's MaskablePPO reads it)
and `info["action_mask"]` give the legal ones. The reward is 0 until the end, then the
learner's result (`encoding.final_rewards`); `info["outcome"]` holds that result on the last
step whatever the reward.

Reward shaping, `reward="shaped"`: an end-of-game reward alone tells a learner too little, too
late (a game is about 120 of its decisions). With it each step also earns
`shaping_gamma * Phi(s') - Phi(s)`, Phi being the learner's chance of winning by the agents'
heuristic (`cyclades.agents.evaluation.win_chances`: a softmax of the players' position
values) and 0 once the game is over. Potential-based shaping (Ng, Harada and Russell, 1999)
leaves the best policy unchanged when `shaping_gamma` is the learner's discount: along a game
the shaping adds up to -Phi(start), the same for every policy. Phi reads the whole game,
hidden purses included: it is a training signal, never part of the observation.

Fewer logits: `CompactActions(env, slots)` restricts the action space to a list of slots (those
a mode uses, `used_slots(...)`) and one more, "another legal action", so that a policy network
computes a few thousand logits instead of ~21,500.

Several games at once: `make_vector_env(n, asynchronous=False, **options)` gives Gymnasium's
`SyncVectorEnv` (all in this process) or `AsyncVectorEnv` (one process each) of n such
environments; `infos["action_mask"]` (n x slots int8) or `vector_action_masks(envs)` give
their masks.

An action outside the mask is, with `invalid_action="penalize"` (the default), answered
with reward `invalid_penalty` (default -1) and `info["invalid_action"] = True`; the game
is unchanged and the learner decides again. With `invalid_action="raise"` it raises
`ActionSpaceError` or `cyclades.IllegalAction`.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

import _cyclades_gymnasium

from ..agents import make_agent
from ..agents.encoding import (
    ACTION_SPACE,
    LAYOUT,
    ActionSpaceError,
    ObservationEncoder,
    final_rewards,
    game_options,
    new_engine_game,
)
from ..agents.evaluation import win_chances
from ..engine.game import IllegalAction
from .incremental import GameEncoder
from .rendering import RENDER_FPS, RENDER_MODES, check_render_mode, render

ENV_ID = _cyclades_gymnasium.ENV_ID   # gymnasium.make("cyclades/Cyclades-v0", players=4, ...)
REWARDS = ("win", "shaped")


class CycladesEnv(gym.Env):
    """One seat of a game of Cyclades for a single learner, the other factions played by
    `cyclades.agents` bots (`opponents`), as a Gymnasium environment.

    Observation: the learner's float32 vector (`encoding.ObservationEncoder`, from its own view,
    R24); action: a slot of the fixed action space (`encoding.ACTION_SPACE`), legal where
    `action_masks()` is True (also `info["action_mask"]`); reward: 0 until the end, then the
    learner's result (win 1, loss 0, a shared win split), or shaped (`reward="shaped"`). The
    game is made by `reset(seed=...)`; the bots play between the learner's decisions.

    Options: those of `cyclades.new_game` (`players`, `ruleset`, `maelstrom`, `teams`,
    `team_goal`, `board`, `max_cycles`: 100 by default, so every episode ends), `seat` (the
    learner's faction, or with 2 players its player: both of its factions), `opponents`,
    `invalid_action` and `invalid_penalty`, `reward` and `shaping_gamma`, `skip_forced` (take
    the learner's decisions that have a single legal action for it, listed in
    `info["skipped"]`), `render_mode` ("human" prints the position as text, "ansi" returns
    it, "rgb_array" returns the board as the browser draws it, an (720, 960, 3) uint8 array).

    `gymnasium.make("cyclades/Cyclades-v0", **options)` makes one: the id is registered when
    Gymnasium is imported (the package installs the hook) and comes without Gymnasium's
    wrappers, so `env.action_masks()` works on what `make` returns; this class refuses a step,
    a mask or a render before `reset` (`gymnasium.error.ResetNeeded`) as the order-enforcing
    wrapper would. docs/rl.md has the whole story."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS}  # noqa: RUF012  (gymnasium.Env declares it so)

    def __init__(self, players=3, seat=0, opponents="random", ruleset="legendary", maelstrom=True,  # noqa: PLR0913  (the environment's options)
                 teams=False, team_goal=3, board="random", max_cycles=100,
                 invalid_action="penalize", invalid_penalty=-1.0, render_mode=None,
                 reward="win", shaping_gamma=0.99, skip_forced=False):
        """opponents: an agent name for every other faction ("random", "greedy", "mcts:..."),
        a list (one per other faction, in faction order), or a dict {faction: ...}; each an
        agent name, an agent object, or a function `seed -> agent`. Agents given by name or
        function are made afresh at each reset, seeded from the episode's seed (a function
        may choose among several: a league of past policies); agent objects are used as they
        are. reward: "win" (the result at the end, 0 before) or "shaped" (the same plus the
        potential-based shaping of the module's docstring, discounted by `shaping_gamma`)."""
        if invalid_action not in ("penalize", "raise"):
            raise ValueError("invalid_action is 'penalize' or 'raise'")
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}")
        # a NaN or infinite figure (or a discount above 1) spoils every return the learner sees
        if not (isinstance(shaping_gamma, numbers.Real) and 0 < float(shaping_gamma) <= 1):
            raise ValueError(f"shaping_gamma is a discount above 0 and at most 1, not {shaping_gamma!r}")
        if not (isinstance(invalid_penalty, numbers.Real) and math.isfinite(invalid_penalty)):
            raise ValueError(f"invalid_penalty is a finite number, not {invalid_penalty!r}")
        check_render_mode(render_mode)
        self.options = game_options(players=players, ruleset=ruleset, maelstrom=maelstrom,
                                    teams=teams, team_goal=team_goal, board=board,
                                    max_cycles=max_cycles)
        factions, layout = self.options["factions"], self.options["team_of"]
        if layout and factions > players:  # two players, two factions each (R22)
            if seat not in (0, 1):
                raise ValueError("with 2 players the seat is 0 or 1")
            self.learner = tuple(f for f in range(factions) if layout[f] == seat)
        else:
            if not 0 <= seat < factions:
                raise ValueError(f"seat must be 0..{factions - 1}")
            self.learner = (seat,)
        self.seat = seat
        others = [f for f in range(factions) if f not in self.learner]
        if isinstance(opponents, dict):
            spec = {f: opponents[f] for f in others}
        elif isinstance(opponents, (list, tuple)):
            if len(opponents) != len(others):
                raise ValueError(f"{len(others)} opponents needed (factions {others})")
            spec = dict(zip(others, opponents))
        else:
            spec = {f: opponents for f in others}
        self._opponent_spec = spec
        self.opponents = {}
        self.invalid_action = invalid_action
        self.invalid_penalty = float(invalid_penalty)
        self.render_mode = render_mode
        self.reward = reward
        self.shaping_gamma = float(shaping_gamma)
        self.skip_forced = bool(skip_forced)
        self._skipped = []                       # the learner's forced decisions since its last step
        self._potential = 0.0                    # Phi of the position the learner decides in
        self.observation_space = spaces.Box(low=0.0, high=LAYOUT.high, dtype=np.float32)
        self.action_space = spaces.Discrete(ACTION_SPACE.n)
        self.encoder = ObservationEncoder()      # the reference encoder (from the view)
        self.game_encoder = GameEncoder()        # the fast path: the same numbers
        self.game: Any = None  # the engine game, made by reset()

    # --- gymnasium API ---------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        self.game = new_engine_game(self.options, game_seed)
        self.opponents = {f: _opponent(a, (game_seed + 7919 * (f + 1)) % 2**63)
                          for f, a in self._opponent_spec.items()}
        self._skipped = []
        self._play_opponents()
        if self.game.is_over:
            raise RuntimeError("the game ended before the learner's first decision")
        self._potential = self._phi()
        return self._observe(), self._info()

    def step(self, action):
        g = self.game
        if g is None:
            raise ResetNeeded("call reset() before step()")
        if g.is_over:
            raise ResetNeeded("the game is over: call reset() before step()")
        self._skipped = []
        try:
            g.apply(self.game_encoder.action(action, g))
        except (ActionSpaceError, IllegalAction):
            if self.invalid_action == "raise":
                raise
            info = self._info()
            info["invalid_action"] = True
            return self._observe(), self.invalid_penalty, False, False, info
        self._play_opponents()
        terminated = g.is_over
        outcome = final_rewards(g.result())[self.learner[0]] if terminated else 0.0
        reward = outcome
        if self.reward == "shaped":
            potential = 0.0 if terminated else self._phi()
            reward += self.shaping_gamma * potential - self._potential
            self._potential = potential
        if self.render_mode == "human":
            self.render()
        info = self._info()
        if terminated:
            info["outcome"] = outcome
        return self._observe(), reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """bool vector: True exactly on the learner's legal actions (sb3-contrib's convention)."""
        if self.game is None:
            raise ResetNeeded("call reset() before action_masks()")
        return self.game_encoder.mask_array(self.game, self._me()).astype(bool)

    def render(self):
        if self.game is None and self.render_mode is not None:
            raise ResetNeeded("call reset() before render()")
        return render(self.render_mode, self.game)

    # --- internals -------------------------------------------------------------------------

    def _play_opponents(self):
        """The bots' decisions up to the learner's next one (and, with `skip_forced`, the
        learner's decisions that have a single legal action, taken for it)."""
        g = self.game
        while not g.is_over:
            p = g.to_move
            if p not in self.learner:
                g.apply(self.opponents[p].act(g, p))
                continue
            if not self.skip_forced:
                return
            legal = g.legal_actions()
            if len(legal) != 1:
                return
            g.apply(legal[0])
            self._skipped.append((f"player_{p}", legal[0]))

    def _phi(self):
        """The shaping potential: the learner's win chance by the heuristic (0 unshaped)."""
        return win_chances(self.game)[self.learner[0]] if self.reward == "shaped" else 0.0

    def _me(self):
        """The learner's faction that observes: the one to move, else the seat's first."""
        g = self.game
        return g.to_move if g.to_move in self.learner else self.learner[0]

    def _observe(self):
        return self.game_encoder.observation(self.game, self._me())

    def _info(self):
        me = self._me()
        info = {"action_mask": self.game_encoder.mask(self.game, me), "faction": me}
        if self.skip_forced:
            info["skipped"] = list(self._skipped)
        return info


def _opponent(spec, seed):
    """An opponent for one game: made by name or by a function of the seed, else as given."""
    if isinstance(spec, str):
        return make_agent(spec, seed=seed)
    if callable(spec) and not hasattr(spec, "act"):
        return spec(seed)
    return spec


class CompactActions(gym.Wrapper):
    """A `CycladesEnv` acting through `slots` (indexes of the fixed action space) and one last
    action, "another legal action": a uniformly random legal one outside `slots` (legal only
    when there is one). Every legal action stays reachable, and a policy network over the
    slots a mode uses (`used_slots`) computes a few thousand logits instead of ~21,500: those
    dominate a masked policy's time on a CPU. `action_masks()` and `info["action_mask"]` are
    over the compact space; `full_action(a)` is its slot in the fixed space."""

    def __init__(self, env, slots):
        super().__init__(env)
        given, n = np.asarray(slots), env.action_space.n
        if given.size and (not np.issubdtype(given.dtype, np.integer) or given.min() < 0 or given.max() >= n):
            # (a negative slot would read the mask from its end, a fraction be cut to another slot)
            raise ValueError(f"slots are whole numbers, indexes of the action space 0..{n - 1}")
        self.slots = np.unique(given.astype(np.int64))
        self.other = len(self.slots)             # the last action: another legal one
        self._outside = np.ones(env.action_space.n, dtype=bool)
        self._outside[self.slots] = False
        self.action_space = spaces.Discrete(len(self.slots) + 1)

    def action_masks(self) -> np.ndarray:
        full = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return np.append(full[self.slots], (full & self._outside).any())

    def full_action(self, action) -> int:
        """The slot of compact action `action`; for "another legal action" a random legal slot
        outside `slots`, or, when there is none, an illegal slot (the environment answers it
        as any illegal action)."""
        if int(action) != self.other:
            return int(self.slots[int(action)])
        legal = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        outside = np.flatnonzero(legal & self._outside)
        if not len(outside):
            return int(np.flatnonzero(~legal)[0])
        return int(self.np_random.choice(outside))

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        return obs, self._compact(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(self.full_action(action))
        return obs, reward, terminated, truncated, self._compact(info)

    def _compact(self, info):
        info["action_mask"] = self.action_masks().astype(np.int8)
        return info


def used_slots(games=200, seed=0, **options) -> np.ndarray:
    """The slots legal at some decision of the learner in `games` games of
    `CycladesEnv(**options)` (seeds seed, seed+1, ...) where it plays uniformly at random:
    the slots of that mode, for `CompactActions`. Rarer ones stay reachable through its
    "another legal action"."""
    env = CycladesEnv(**options)
    rng = np.random.default_rng(seed)
    seen = np.zeros(env.action_space.n, dtype=np.bool_)  # type: ignore[attr-defined]
    for k in range(games):
        env.reset(seed=seed + k)
        while True:
            mask = env.action_masks()
            seen |= mask
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                break
    return np.flatnonzero(seen)


def make_vector_env(n=1, asynchronous=False, *, context=None, **options):
    """`n` `CycladesEnv(**options)` side by side as a Gymnasium vector environment:
    `gymnasium.vector.SyncVectorEnv` (one process, the environments stepped in turn) or, with
    `asynchronous=True`, `gymnasium.vector.AsyncVectorEnv` (one worker process per
    environment, `context` its multiprocessing start method: "fork", "spawn", ...).

    `envs.reset(seed=s)` seeds environment k with s + k. Masks: `infos["action_mask"]` is an
    (n, slots) int8 array, row k environment k's legal slots; `vector_action_masks(envs)` asks
    every environment for `action_masks()` (bool). The step that ends a game gives that
    environment an all-zero mask row (the game is over); Gymnasium resets it at the next
    `step()` and ignores its action there, so any action does."""
    if n < 1:
        raise ValueError("a vector environment has at least one environment")
    make = [_maker(options) for _ in range(n)]
    if asynchronous:
        return gym.vector.AsyncVectorEnv(make, context=context)
    return gym.vector.SyncVectorEnv(make)


def vector_action_masks(envs) -> np.ndarray:
    """(n, slots) bool array: each environment's `action_masks()` (sync or async)."""
    return np.stack(envs.call("action_masks"))


class _maker:
    """A picklable `CycladesEnv(**options)` factory (AsyncVectorEnv may spawn its workers)."""

    def __init__(self, options):
        self.options = dict(options)

    def __call__(self):
        return CycladesEnv(**self.options)


_cyclades_gymnasium.register(gym)  # done on Gymnasium's import where cyclades is installed
