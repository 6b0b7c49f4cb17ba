"""The agents' Python API as docs/agents.md shows it: make_agent(name, seed).act(game, player),
reprs that show the options, agents of the user's own code (`module:Class[:options]`,
`register`) in make_agent, tournaments and ladders, and a trained policy (`ppo:path=DIR`)
playing in both."""
import json
import pickle
import re
import sys
import textwrap

import pytest
from click.testing import CliRunner

import cyclades
from cyclades.agents import make_agent
from cyclades.agents.ladder import Ladder
from cyclades.agents.tournament import Tournament
from cyclades.cli import main

MYBOTS = textwrap.dedent('''
    import random
    from cyclades.agents import Agent

    class Cautious(Agent):
        """Ends its turn when it may, else plays at random."""
        name = "cautious"

        def __init__(self, seed=None, patience=0):
            super().__init__(seed)
            self.patience = int(patience)
            self.rng = random.Random(seed)

        def choose(self, obs):
            legal = obs.legal_actions()
            ends = [a for a in legal if a.kind == "end_turn"]
            return ends[0] if ends and self.rng.random() >= self.patience / 10 else self.rng.choice(legal)
''')


@pytest.fixture
def mybots(tmp_path, monkeypatch):
    """A module of the user's own in the current directory, not on the path (as for
    `cyclades tournament` run where the file is)."""
    (tmp_path / "mybots.py").write_text(MYBOTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield tmp_path
    sys.modules.pop("mybots", None)


def _play(agents, seed=1, max_cycles=3):
    game = cyclades.new_game(players=len(agents), seed=seed, max_cycles=max_cycles)
    while not game.is_over:
        p = game.to_move
        action = agents[p].act(game, p)
        assert action in game.legal_actions()
        game.apply(action)
    return game


def test_make_agent_act_and_reprs_that_can_be_pasted_back():
    agents = [make_agent("greedy:lookahead=0", seed=1), make_agent("mcts:iterations=8", seed=2),
              make_agent("random", seed=3)]
    assert repr(agents[1]) == "MCTSAgent(seed=2, iterations=8)"
    assert repr(agents[0]) == "GreedyAgent(seed=1, lookahead=False)"
    assert agents[1].spec() == "mcts:iterations=8"
    assert repr(make_agent(agents[1].spec(), seed=2)) == repr(agents[1])
    game = _play(agents)
    for d in game.record()["actions"]:
        action = cyclades.Action.from_json(d)
        assert eval(repr(action), {"Action": cyclades.Action}) == action
    assert repr(cyclades.Action("bid", "zeus", n=3)) == "Action('bid', what='zeus', n=3)"


def test_messages_name_factions_as_the_api_does():
    game = cyclades.new_game(players=3, seed=1)
    other = (game.to_move + 1) % 3
    for name in ("random", "greedy"):
        with pytest.raises(ValueError, match=rf"^player_{other} is not to move \(player_{game.to_move} is\)"):
            make_agent(name, seed=0).act(game, other)


def test_an_agent_of_ones_own_by_module_and_class(mybots):
    bot = make_agent("mybots:Cautious:patience=3", seed=4)
    assert type(bot).__name__ == "Cautious" and repr(bot) == "Cautious(seed=4, patience=3)"
    _play([bot, make_agent("random", seed=5), make_agent("greedy", seed=6)])
    with pytest.raises(ValueError, match="cannot import 'nobots'"):
        make_agent("nobots:Cautious")
    with pytest.raises(ValueError, match="mybots has no 'Careful'"):
        make_agent("mybots:Careful")


def test_register_names_an_agent_for_make_agent():
    from cyclades.agents import AGENTS, Agent, register

    @register("first-legal")
    class FirstLegal(Agent):
        def choose(self, obs):
            return obs.legal_actions()[0]
    try:
        bot = make_agent("first-legal", seed=1)
        assert isinstance(bot, FirstLegal) and bot.name == "first-legal"
        _play([bot, make_agent("random", seed=2), make_agent("random", seed=3)])
    finally:
        AGENTS.pop("first-legal")


def test_tournament_and_ladder_commands_take_module_class(mybots):
    r = CliRunner().invoke(main, ["tournament", "--agents", "mybots:Cautious:patience=2,random", "--games", "2",
                                  "--workers", "1", "--max-cycles", "2", "--out", str(mybots / "t")])
    assert r.exit_code == 0, r.output
    summary = {s["agent"]: s for s in json.loads((mybots / "t" / "results.json").read_text())["summary"]}
    assert summary["mybots:Cautious:patience=2"]["games"] > 0
    r = CliRunner().invoke(main, ["ladder", "--agents", "random,greedy,mybots:Cautious", "--workers", "1",
                                  "--max-cycles", "2", "--out", str(mybots / "l")])
    assert r.exit_code == 0, r.output
    rated = {x["agent"] for x in json.loads((mybots / "l" / "ladder.json").read_text())["ratings"]}
    assert "mybots:Cautious" in rated
    r = CliRunner().invoke(main, ["tournament", "--agents", "mybots:Nobody,random", "--games", "1"])
    assert r.exit_code == 2 and "mybots has no 'Nobody'" in r.output


def test_tournament_and_ladder_python_api():
    t = Tournament(["greedy", "random"], games=2, workers=1, max_cycles=2)
    rows = t.run()
    assert len(rows) == 3 and {s["agent"] for s in t.summary()} == {"greedy", "random"}
    lad = Ladder(["greedy", "careless"], workers=1, max_cycles=2)
    lad.run()
    assert {r["agent"] for r in lad.ratings()} == {"random", "greedy", "careless"}


def _tiny_policy(directory):
    """A MaskablePPO policy saved as examples/train_maskable_ppo.py saves one (model.zip,
    vecnormalize.pkl, slots.json), after a few dozen timesteps."""
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    import numpy as np
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

    from cyclades.env.gym import CompactActions, CycladesEnv, used_slots
    slots = used_slots(games=2, seed=0, players=3, max_cycles=3)
    venv = VecNormalize(DummyVecEnv([lambda: CompactActions(CycladesEnv(players=3, max_cycles=3), slots)]),
                        norm_reward=False)
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]})
    model.learn(32)
    directory.mkdir()
    model.save(directory / "model.zip")
    with open(directory / "vecnormalize.pkl", "wb") as fh:
        pickle.dump(venv, fh)
    (directory / "slots.json").write_text(json.dumps([int(s) for s in np.unique(slots)]))
    return directory


def test_a_trained_policy_plays_as_an_agent_in_tournaments_and_ladders(tmp_path):
    path = _tiny_policy(tmp_path / "ppo")
    bot = make_agent(f"ppo:path={path}", seed=1)
    assert repr(bot).startswith("PolicyAgent(seed=1, path=")
    game = _play([make_agent("random", seed=2), bot, make_agent("greedy", seed=3)], max_cycles=2)
    again = _play([make_agent("random", seed=2), make_agent(f"ppo:path={path}", seed=1),
                   make_agent("greedy", seed=3)], max_cycles=2)
    assert again.record()["actions"] == game.record()["actions"]  # its own seeded generator
    t = Tournament([f"ppo:path={path}", "random"], games=2, workers=1, max_cycles=2)
    t.run()
    assert not t.errors() and {s["agent"] for s in t.summary()} == {f"ppo:path={path}", "random"}
    lad = Ladder([f"ppo:path={path}", "beginner", "careless"], workers=1, max_cycles=2)
    lad.run()
    assert not lad.errors() and f"ppo:path={path}" in {r["agent"] for r in lad.ratings()}
    with pytest.raises(ValueError, match=r"no model\.zip"):
        make_agent(f"ppo:path={tmp_path}", seed=1)


def test_a_policy_for_another_action_space_is_refused_naming_its_file(tmp_path):
    """A model whose actions are not the ones its slots (or the fixed action space) give, or whose
    action space is not a discrete one, is refused with the file named, not played wrongly."""
    path = _tiny_policy(tmp_path / "ppo")
    slots = json.loads((path / "slots.json").read_text())
    (path / "slots.json").write_text(json.dumps(slots[:-1]))
    refusal = f"{path / 'model.zip'} has {len(slots) + 1} actions, but slots.json gives {len(slots)}"
    with pytest.raises(ValueError, match=re.escape(refusal)):
        make_agent(f"ppo:path={path}", seed=1)

    import gymnasium
    import numpy as np
    from sb3_contrib import MaskablePPO

    class Pairs(gymnasium.Env):  # two choices of two: a MultiDiscrete space, which sb3-contrib masks too
        observation_space = gymnasium.spaces.Box(0, 1, (3,))
        action_space = gymnasium.spaces.MultiDiscrete([2, 2])

        def reset(self, seed=None, options=None):
            return np.zeros(3, np.float32), {}

        def step(self, action):
            return np.zeros(3, np.float32), 0.0, True, False, {}

    other = tmp_path / "pairs"
    other.mkdir()
    MaskablePPO("MlpPolicy", Pairs(), n_steps=8, policy_kwargs={"net_arch": [4]}).save(other / "model.zip")
    with pytest.raises(ValueError, match=re.escape(f"{other / 'model.zip'} has a MultiDiscrete action space")):
        make_agent(f"ppo:path={other}", seed=1)
