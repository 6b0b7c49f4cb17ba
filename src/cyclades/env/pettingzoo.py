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
"action_mask": int8 vector}, both read from that faction's own view (R24). Rewards come
at the end only (`encoding.final_rewards`: win 1, loss 0, a shared win split; in team
play every faction gets its team's result).

`raw_env` raises on an action outside the mask (`ActionSpaceError` or the engine's
`IllegalAction`, the game unchanged); `env()` adds PettingZoo's usual wrappers, with
which an illegal action ends the game with -1 for the faction that chose it.
"""
from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .encoding import (ACTION_SPACE, LAYOUT, ObservationEncoder, final_rewards, game_options,
                       legal_mask, new_engine_game, render)


def env(**options):
    """The AEC environment in PettingZoo's usual wrapper stack for turn-based games."""
    e = raw_env(**options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def observation_space():
    return spaces.Dict({
        "observation": spaces.Box(low=0.0, high=LAYOUT.high, dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SPACE.n,), dtype=np.int8),
    })


class raw_env(AECEnv):
    """One game of Cyclades per episode.

    Options (those of `cyclades.new_game`): players (2..6), ruleset, maelstrom, teams,
    team_goal, board ("random" or "recommended"), max_cycles (default 100: the game then
    ends with the rulebook's tie-breaks, R21, so every episode terminates).
    """

    metadata = {"render_modes": ["ansi", "human"], "name": "cyclades_v0",
                "is_parallelizable": False}

    def __init__(self, players=3, ruleset="legendary", maelstrom=True, teams=False, team_goal=3,
                 board="random", max_cycles=100, render_mode=None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.options = game_options(players=players, ruleset=ruleset, maelstrom=maelstrom,
                                    teams=teams, team_goal=team_goal, board=board,
                                    max_cycles=max_cycles)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.options["factions"])]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(ACTION_SPACE.n) for a in self.possible_agents}
        self.action_space_layout = ACTION_SPACE
        self.encoder = ObservationEncoder()
        self._seeds = np.random.default_rng()
        self.game = None

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
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent):
        p = self._index[agent]
        view = self.game.view(p)
        return {"observation": self.encoder.encode_view(view, self.game.board, self.game.options, p),
                "action_mask": legal_mask(self.game, p, view=view)}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to decide: None is an action only for a finished agent")
        g = self.game
        g.apply(ACTION_SPACE.decode(action, g.board))  # raises, changing nothing, if not legal
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if g.is_over:
            for a, r in zip(self.possible_agents, final_rewards(g.result())):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[g.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        return render(self.render_mode, self.game)

    def close(self):
        pass
