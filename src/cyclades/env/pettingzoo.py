"""Cyclades as a PettingZoo AEC environment (docs/rl.md).

    from cyclades.env.pettingzoo import env
    e = env(players=3)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are "player_0", "player_1", ... one per faction (with 2 players, four factions:
"player_0" and "player_2" are the first player's, R22). The agent to act is always the
faction the engine waits on. `observe(agent)` is {"observation": float32 vector,
"action_mask": int8 vector}, both read from that faction's own view (R24), built only when
asked for, by `incremental.GameEncoder` (the numbers of `ObservationEncoder` and `legal_mask`,
rewritten only where the position changed since that agent's last observation). Both arrays
are read-only and yours to keep: they never change while you hold them (or a view of them),
and the environment writes into them again only once you drop them, so a step copies no
array; `.copy()` one to change it. The mask is also in `infos[agent]["action_mask"]` (all zero
for the factions not to decide): a policy that needs only the mask reads it from
`last(observe=False)` and no observation vector is built. Rewards come at the end only
(`encoding.final_rewards`: win 1, loss 0, a shared win split; in team play every faction gets
its team's result).

`state()` is the global state for centralised critics (MAPPO and the like): the observation
vector from faction 0's seat with every purse shown and the pending decision in full, which no
player's observation has (`global_state`). With `skip_forced=True` a decision that has a single
legal action is taken for its agent, and the agent to act next finds those decisions in
`infos[agent]["skipped"]`; the game's record holds them all.

`raw_env` raises on an action outside the mask (`ActionSpaceError` or the engine's
`IllegalAction`, the game unchanged); `env()` adds the behaviour of PettingZoo's usual
wrappers (in one, `Wrapped`), with which an illegal action ends the game with -1 for the
faction that chose it.
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from ..agents.encoding import ACTION_SPACE, LAYOUT, ObservationEncoder, final_rewards, game_options, new_engine_game
from .incremental import GameEncoder
from .rendering import RENDER_FPS, RENDER_MODES, check_render_mode, render


def env(**options):
    """The AEC environment with the behaviour of PettingZoo's usual wrappers for turn-based
    games (`TerminateIllegalWrapper(illegal_reward=-1)`, `AssertOutOfBoundsWrapper`,
    `OrderEnforcingWrapper`), in one wrapper: `Wrapped`."""
    return Wrapped(raw_env(**options), illegal_reward=-1)


class Wrapped(wrappers.OrderEnforcingWrapper):
    """PettingZoo's three usual wrappers in one, same behaviour: order enforcing (attributes
    and methods refused before `reset`, a warning for a step after the end), an assertion that
    an action is in the action space, and an illegal action (outside the mask) ending the game
    with `illegal_reward` for the agent that chose it and 0 for the others.

    Stacked, the three cost more than building the observation: each reads the raw
    environment's attributes through the `__getattr__` of every wrapper below it (a failed
    lookup, an AttributeError and a call per level), some twenty times a step. Here they are
    read from the raw environment directly (docs/rl.md, Speed)."""

    def __init__(self, env, illegal_reward=-1):
        super().__init__(env)
        self._raw = env.unwrapped
        self._illegal_value = illegal_reward
        self._terminated = False  # ended by an illegal move

    def reset(self, seed=None, options=None):
        self._terminated = False
        super().reset(seed=seed, options=options)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.observe(agent)

    def last(self, observe=True):
        if not self._has_reset:
            return super().last(observe)  # refused as PettingZoo's wrapper refuses it
        raw = self._raw
        agent = raw.agent_selection
        return (raw.observe(agent) if observe else None, raw._cumulative_rewards[agent],
                raw.terminations[agent], raw.truncations[agent], raw.infos[agent])

    def agent_iter(self, max_iter=2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def step(self, action):
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        # AssertOutOfBoundsWrapper
        ok = (0 <= action < raw.action_spaces[agent].n if type(action) is int
              else (action is None and dead) or raw.action_space(agent).contains(action))
        assert ok, "action is not in action space"
        # TerminateIllegalWrapper (its mask: the one the agent's observation holds, but read
        # without building the observation)
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not raw.action_mask(agent)[action]:
            EnvLogger.warn_on_illegal_move()
            raw._cumulative_rewards[agent] = 0
            raw.terminations = dict.fromkeys(raw.agents, True)
            raw.truncations = dict.fromkeys(raw.agents, True)
            raw.rewards = dict.fromkeys(raw.truncations, 0)
            raw.rewards[agent] = float(self._illegal_value)
            raw._accumulate_rewards()
            raw._deads_step_first()
            self._terminated = True
        else:
            raw.step(action)


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator, the raw environment's attributes read directly."""

    def __next__(self):
        wrapped = self.env
        raw = wrapped._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapped._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapped._has_updated = False
        return raw.agent_selection


def _read_raw(name):
    def get(self):
        if not self._has_reset and name != "_cumulative_rewards":
            raise AttributeError(name)  # then OrderEnforcingWrapper.__getattr__ explains
        return getattr(self._raw, name)
    return property(get, doc=f"the raw environment's `{name}`")


for _name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
              "_cumulative_rewards"):
    setattr(Wrapped, _name, _read_raw(_name))


class BotPolicy:
    """A `cyclades.agents` agent as a policy of a PettingZoo loop: `policy(env, agent)` is the
    slot it chooses for `agent` (a name such as "player_1") in the AEC environment `env`
    (wrapped or raw). It reads the engine game behind the environment, which hands the agent
    only that faction's observation (R24).

        bots = {a: BotPolicy("greedy", seed=k) for k, a in enumerate(e.possible_agents)}
        for agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last(observe=False)
            e.step(None if terminated or truncated else bots[agent](e, agent))
    """

    def __init__(self, agent, seed=None):
        if isinstance(agent, str):
            from ..agents import make_agent
            agent = make_agent(agent, seed=seed)
        self.agent = agent

    def __call__(self, env, agent) -> int:
        raw = env.unwrapped
        game = raw.game
        action = self.agent.act(game, raw.possible_agents.index(agent))
        return ACTION_SPACE.encode(action, game.board)

    def __repr__(self):
        return f"BotPolicy({self.agent!r})"


def observation_space():
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=LAYOUT.high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SPACE.n,), dtype=np.int8),
    })


def global_state(game, encoder=None) -> np.ndarray:
    """The whole position as one vector of the observation layout (`encoding.LAYOUT`), for a
    centralised critic: rows of factions in faction order (faction 0 at "player+0"), every
    purse known (`gp_known` 1), the pending decision with the fields only its decider sees.
    The order of the piles and the generator are in no vector, this one included."""
    encoder = encoder or ObservationEncoder()
    decider = game.to_move
    v = game.view(decider if isinstance(decider, int) and decider >= 0 else None)
    for d in v["players"]:
        d["gp"] = game.purse(d["index"])
    return encoder.encode_view(v, game.board, game.options, 0)


class raw_env(AECEnv):
    """One game of Cyclades per episode.

    Options (those of `cyclades.new_game`): players (2..6), ruleset, maelstrom, teams,
    team_goal, board ("random" or "recommended"), max_cycles (default 100: the game then
    ends with the rulebook's tie-breaks, R21, so every episode terminates); skip_forced
    (decisions with a single legal action taken for their agent, listed in the next agent's
    `infos[agent]["skipped"]`); render_mode: "human" (the position printed as text), "ansi"
    (that text returned) or "rgb_array" (the board as the browser draws it, pixels).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "render_fps": RENDER_FPS, "name": "cyclades_v0",
                "is_parallelizable": False}

    def __init__(self, players=3, ruleset="legendary", maelstrom=True, teams=False, team_goal=3,
                 board="random", max_cycles=100, render_mode=None, skip_forced=False):
        super().__init__()
        check_render_mode(render_mode)
        self.skip_forced = bool(skip_forced)
        self.options = game_options(players=players, ruleset=ruleset, maelstrom=maelstrom,
                                    teams=teams, team_goal=team_goal, board=board,
                                    max_cycles=max_cycles)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.options["factions"])]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space()
        self.state_space = obs_space["observation"]
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_SPACE.n) for a in self.possible_agents}
        self.action_space_layout = ACTION_SPACE
        self.encoder = ObservationEncoder()      # the reference encoder (from the view)
        self.game_encoder = GameEncoder()        # the fast path observe() uses: same numbers
        self._seeds = np.random.default_rng()
        self.game: Any = None  # the engine game, made by reset()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game. `reset(seed=s)` plays `new_game(seed=s)`; later resets without a seed
        draw their seeds from a generator seeded with s, so a run of episodes replays."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2**63))
        self.game = new_engine_game(self.options, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"action_mask": self.game_encoder.zero_mask} for a in self.agents}
        skipped = self._take_forced()
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._show_mask(skipped)

    def observe(self, agent):
        p, g, enc = self._index[agent], self.game, self.game_encoder
        observation, mask = enc.frozen(g, p)
        return {"observation": observation, "action_mask": mask}

    def action_mask(self, agent):
        """`agent`'s action mask (the one its observation holds), read-only, without building
        the observation."""
        return self.game_encoder.frozen_mask(self.game, self._index[agent])

    def state(self) -> np.ndarray:
        """The global state (`global_state`): the whole position as one observation vector."""
        return global_state(self.game, self.encoder)

    def _show_mask(self, skipped=()):
        """The mask of the agent to decide in its info (the others' are all zero), and with
        `skip_forced` the decisions taken for their agents since the last step."""
        info = {"action_mask": self.action_mask(self.agent_selection)}
        if self.skip_forced:
            info["skipped"] = list(skipped)
        self.infos[self.agent_selection] = info

    def _take_forced(self) -> list:
        """With `skip_forced`, the decisions that have a single legal action, taken: [(agent,
        action)]; they are in the game's record like every other."""
        g, taken = self.game, []
        while self.skip_forced and not g.is_over:
            legal = g.legal_actions()
            if len(legal) != 1:
                break
            taken.append((self.possible_agents[g.to_move], legal[0]))
            g.apply(legal[0])
        return taken

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to decide: None is an action only for a finished agent")
        g = self.game
        g.apply(self.game_encoder.action(action, g))  # raises, changing nothing, if not legal
        skipped = self._take_forced()
        self._cumulative_rewards[agent] = 0.0
        # (the last mask dropped first, so that its array can be written again)
        self.infos[agent] = {"action_mask": self.game_encoder.zero_mask}
        if g.is_over:
            self._clear_rewards()
            for a, r in zip(self.possible_agents, final_rewards(g.result())):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # every reward is 0 until the end (_clear_rewards, _accumulate_rewards: no-ops)
            self.agent_selection = self.possible_agents[g.to_move]
            self._show_mask(skipped)
        if self.render_mode == "human":
            self.render()

    def render(self):
        return render(self.render_mode, self.game)

    def close(self):
        pass
