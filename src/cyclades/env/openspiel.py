"""Cyclades as an OpenSpiel game (optional extra `openspiel`): importing this module
registers it as "cyclades".

    import pyspiel
    import cyclades.env.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("cyclades", {"players": 4})

Sequential, general-sum, imperfect information, terminal rewards, one OpenSpiel player
per faction. Actions are the indexes of the fixed action space (`encoding.ACTION_SPACE`).

Chance. The engine game is made with `chance="explicit"` (engine/chance.py), so that it
waits on chance itself: each battle die (and Croesus' re-roll) is a chance node with outcomes
0..3 of probabilities 1/6, 1/3, 1/3, 1/6 (the faces 0, 1, 1, 2, 2, 3 of R3), and each card
drawn (the tracks' refills, Zeus' look at the deck, the Sphinx, a metropolis bonus) a chance
node whose outcomes are the cards left in its pile, each as likely as its copies are many
(ids `CHANCE_SPACE`, after the die's four). The board and the piles' first order come from the
game's own hidden generator (R4), drawn at the opening chance nodes: by default (`seeds` 0) a
fresh deal, its seed `seed` + four uniform bytes (DEAL_BYTES chance nodes of 256 outcomes:
2**32 deals); with `seeds` = N above 1 one node choosing `seed` + k, k uniform in 0..N-1; with
`seeds` 1 no chance, the game's seed is `seed` itself (one fixed deal). The generator stays
hidden: no observation or information state shows it, and `resample_from_infostate` (used by
ISMCTS) redraws the hidden facts with `game.observe(p).determinize(rng)`.

Observations. `observation_tensor(p)` is `encoding.ObservationEncoder` on `game.view(p)`;
`information_state_tensor(p)` is the same vector (a Markov summary, not a perfect-recall
one); `information_state_string(p)` adds the public history (every decision and die since
the start) to the view, so it has perfect recall of everything public. The public
observer (private info NONE) reads `game.view(None)`.

`skip_forced=True`: a decision with a single legal action is no OpenSpiel node; it is carried
out for its player (dice still asked of chance), and stays in the public history and the
engine's record (`state.engine.record()`).
"""
from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..agents.encoding import (
    ACTION_SPACE,
    LAYOUT,
    ActionSpace,
    ObservationEncoder,
    final_rewards,
    game_options,
    new_engine_game,
)
from ..engine.actions import CHANCE_KINDS
from ..engine.chance import DIE_ODDS
from ..engine.game import CHANCE, Game

DIE_PROBS = DIE_ODDS  # R3: faces 0, 1, 1, 2, 2, 3: outcome ids 0..3 are the faces
# Chance outcome ids: the die's faces, then the cards (engine/actions.py: the chance kinds).
CHANCE_SPACE = ActionSpace(kinds=[k.name for k in CHANCE_KINDS])
DEAL_BYTES = 4   # a fresh deal's seed: this many chance nodes of 256 outcomes each

_DEFAULT_PARAMS: dict[str, Any] = {
    "players": 3,
    "ruleset": "legendary",
    "maelstrom": True,
    "teams": False,
    "team_goal": 3,
    "board": "random",
    "max_cycles": 100,
    "seed": 0,
    "seeds": 0,     # 0: a fresh deal by chance; 1: the deal of `seed`; N: one of seed .. seed+N-1
    "max_game_length": 20000,
    "skip_forced": False,   # decisions with a single legal action taken for their player
}

_GAME_TYPE = pyspiel.GameType(
    short_name="cyclades",
    long_name="Cyclades",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


class CycladesGame(pyspiel.Game):
    def __init__(self, params=None):
        p = dict(_DEFAULT_PARAMS)
        p.update(params or {})
        if int(p["seeds"]) < 0:  # (no chance outcome at all: the game could not begin)
            raise ValueError(f"seeds is 0 (a fresh deal), 1 (the deal of seed) or more, not {p['seeds']}")
        if int(p["max_game_length"]) < 1:
            raise ValueError(f"max_game_length is 1 or more, not {p['max_game_length']}")
        self.options = p
        self._starts = {}
        self._engine_options = game_options(
            players=p["players"], ruleset=p["ruleset"], maelstrom=p["maelstrom"], teams=p["teams"],
            team_goal=p["team_goal"], board=p["board"], max_cycles=p["max_cycles"] or None,
            chance="explicit")
        self.factions = self._engine_options["factions"]
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_SPACE.n,
            max_chance_outcomes=max(CHANCE_SPACE.n, 256, int(p["seeds"])),
            num_players=self.factions,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=int(p["max_game_length"]),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return CycladesState(self)

    def new_engine_game(self, seed) -> Game:
        """A new engine game; the first position of each seed is kept (OpenSpiel asks for
        initial states often, and assembling a board is the costly part)."""
        start = self._starts.get(seed)
        if start is None:
            start = new_engine_game(self._engine_options, seed)
            if len(self._starts) >= 256:
                self._starts.pop(next(iter(self._starts)))
            self._starts[seed] = start
        return start.copy()

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CycladesObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                params)


class _Data:
    """What a state holds besides OpenSpiel's own bookkeeping. OpenSpiel clones a Python
    state with `copy.deepcopy`; this copies the engine game with its cheap `Game.copy()`
    (a deep copy would walk the whole decision history)."""

    __slots__ = ("deal", "engine", "length", "public")

    def __init__(self, engine):
        self.engine = engine    # the engine Game, None before the opening chance nodes
        self.deal = []          # the bytes of a fresh deal's seed drawn so far
        self.public = []        # public history: "p:index" decisions, "d:id" chance outcomes
        self.length = 0         # actions applied, chance ones included

    def __deepcopy__(self, memo):
        d = _Data(self.engine.copy() if self.engine is not None else None)
        d.deal = list(self.deal)
        d.public, d.length = list(self.public), self.length
        return d


class CycladesState(pyspiel.State):
    """An engine game (chance="explicit": it waits on chance itself)."""

    def __init__(self, game, engine=None):
        super().__init__(game)
        self._options = game.options
        self._max_length = int(game.options["max_game_length"])
        self._skip_forced = bool(game.options["skip_forced"])
        fixed = engine is None and int(game.options["seeds"]) == 1
        self._d = _Data(game.new_engine_game(int(game.options["seed"])) if fixed else engine)
        if fixed:
            self._take_forced()

    @property
    def engine(self):
        """The engine `Game` (None before the opening chance node draws the generator)."""
        return self._d.engine

    @property
    def public(self):
        return self._d.public

    # --- OpenSpiel API ---------------------------------------------------------------------

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.engine is None or self.engine.to_move == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self.engine.to_move

    def is_terminal(self):
        d = self._d
        return d.engine is not None and (d.engine.is_over or d.length >= self._max_length)

    def _legal_actions(self, player):
        g = self.engine
        if g is None or player != g.to_move or player == CHANCE:
            return []
        return sorted(ACTION_SPACE.encode(a, g.board) for a in g.legal_actions())

    def chance_outcomes(self):
        g = self.engine
        if g is None:
            k = int(self._options["seeds"]) or 256
            return [(i, 1.0 / k) for i in range(k)]
        return [(CHANCE_SPACE.encode(a, g.board), p) for a, p in g.chance_outcomes()]

    def _apply_action(self, action):
        d = self._d
        d.length += 1
        if d.engine is None:  # the opening chance nodes draw the hidden generator
            seed = int(self._options["seed"])
            if int(self._options["seeds"]) > 1:
                d.engine = self.get_game().new_engine_game(seed + action)
                self._take_forced()
                return
            d.deal.append(action)
            if len(d.deal) == DEAL_BYTES:
                d.engine = self.get_game().new_engine_game(seed + int.from_bytes(bytes(d.deal), "big"))
                self._take_forced()
            return
        g = d.engine
        if g.to_move == CHANCE:
            # What everyone saw: a die, or a card drawn for all to see (not Zeus' or the Sphinx's).
            secret = g.state.stack[-1]["private_to"] >= 0
            d.public.append("d:?" if secret else f"d:{action}")
            g.apply(CHANCE_SPACE.decode(action, g.board))
        else:
            d.public.append(f"{g.to_move}:{action}")
            g.apply(ACTION_SPACE.decode(action, g.board))
        self._take_forced()

    def _take_forced(self):
        """With `skip_forced`, the next decisions that have a single legal action carried out
        for their player (in the public history and the engine's record like any other)."""
        g = self._d.engine
        if not self._skip_forced:
            return
        while not g.is_over and g.to_move != CHANCE:
            legal = g.legal_actions()
            if len(legal) != 1:
                return
            self._d.public.append(f"{g.to_move}:{ACTION_SPACE.encode(legal[0], g.board)}")
            g.apply(legal[0])

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine is None:
                if int(self._options["seeds"]) > 1:
                    return f"seed {int(self._options['seed']) + action}"
                return f"deal byte {len(self._d.deal) + 1} of {DEAL_BYTES}: {action}"
            a = CHANCE_SPACE.decode(action, self.engine.board)
            return f"die {a.n}" if a.kind == "roll" else f"card {a.what}"
        return str(ACTION_SPACE.decode(action, self.engine.board))

    def returns(self):
        if self.engine is None or not self.engine.is_over:
            return [0.0] * self.get_game().num_players()
        return final_rewards(self.engine.result())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: hidden purses, pile orders and the
        generator redrawn (`Observation.determinize`), the public history kept."""
        d = self._d
        if d.engine is None:  # nothing is known yet, nor hidden: the board is still to be drawn
            return self.clone()
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        state = CycladesState(self.get_game(), engine=determinize(d.engine, player_id, rng))
        state._d.public, state._d.length = list(d.public), d.length
        return state

    def __str__(self):
        if self.engine is None:
            return "(the game's generator is to be drawn)"
        return self.engine.to_json()


def determinize(game, player, rng) -> Game:
    """`game` as `player` might imagine it (`Observation.determinize`: hidden purses are
    guessed and always cover the offerings already made, R11)."""
    return game.observe(player).determinize(rng)


class CycladesObserver:
    """Observation tensor and string of a player (OpenSpiel's PyObserver interface)."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Cyclades has no observer of every player's private facts")
        self.encoder = ObservationEncoder()
        self.tensor = np.zeros(LAYOUT.size, np.float32)
        self.dict = {seg.name: self.tensor[seg.start:seg.stop].reshape(seg.shape)
                     for seg in LAYOUT.segments}

    def _view(self, state, player):
        return state.engine.view(player if self.private else None)

    def set_from(self, state, player):
        if state.engine is None:
            self.tensor.fill(0)
            return
        g = state.engine
        self.tensor[:] = self.encoder.encode_view(self._view(state, player), g.board, g.options, player)

    def string_from(self, state, player):
        if state.engine is None:
            return "start"
        text = json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            text = " ".join(state.public) + "\n" + text
        return text


class AgentBot(pyspiel.Bot):
    """A `cyclades.agents` agent as an OpenSpiel bot, for `evaluate_bots` and any OpenSpiel
    loop: `AgentBot("mcts:iterations=200", seed=1)` or `AgentBot(agent)`. At its player's
    decision it hands the agent the engine game (which gives the agent only that player's
    observation, R24) and answers with the action's id; it keeps nothing between steps, so
    `restart_at` and `inform_action` have nothing to do."""

    def __init__(self, agent, seed=None):
        pyspiel.Bot.__init__(self)
        if isinstance(agent, str):
            from ..agents import make_agent
            agent = make_agent(agent, seed=seed)
        self.agent = agent

    def step(self, state):
        g = state.engine
        player = state.current_player()
        return ACTION_SPACE.encode(self.agent.act(g, player), g.board)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_force_action(self):
        return False

    def __repr__(self):
        return f"AgentBot({self.agent!r})"


pyspiel.register_game(_GAME_TYPE, CycladesGame)
