"""The RL environments where they meet the frameworks (docs/rl.md): Gymnasium's registry and
wrappers, Stable-Baselines3's make_vec_env, rendering, PettingZoo's global state, decisions with
a single legal action taken for the agent, the bots as OpenSpiel bots and PettingZoo policies."""
import os
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy", reason="numpy (the 'rl' extra) is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="gymnasium (the 'rl' extra) is not installed")

from repository import ROOT  # noqa: E402

import cyclades  # noqa: E402
from cyclades.engine.actions import CHANCE_KINDS  # noqa: E402
from cyclades.env.gym import ENV_ID, CycladesEnv  # noqa: E402


def _render_deps():
    pytest.importorskip("resvg_py", reason="resvg-py (the 'render' extra) is not installed")
    pytest.importorskip("matplotlib", reason="matplotlib (the 'render' extra) is not installed")


# --- Gymnasium: the id, make, the masks -----------------------------------------------------------

def test_gymnasium_make_works_in_a_program_that_never_imports_cyclades():
    """The installed package registers its id when Gymnasium is imported (a .pth hook): cyclades
    itself is imported by make() alone, and what make() returns answers action_masks()."""
    code = ("import sys, gymnasium\n"
            "assert 'cyclades' not in sys.modules\n"
            "env = gymnasium.make('cyclades/Cyclades-v0', players=4, opponents='greedy')\n"
            "obs, info = env.reset(seed=3)\n"
            "assert (env.action_masks() == info['action_mask'].astype(bool)).all()\n"
            "print(type(env).__name__, obs.shape[0])\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/", timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["CycladesEnv", str(cyclades.env.LAYOUT.size)]


def test_make_returns_the_environment_which_keeps_the_order_itself():
    env = gymnasium.make(ENV_ID, players=3, opponents="random")
    assert isinstance(env, CycladesEnv)  # no wrapper hides action_masks()
    for call in (lambda: env.step(0), env.action_masks):
        with pytest.raises(gymnasium.error.ResetNeeded):
            call()
    obs, info = env.reset(seed=0)
    mask = env.action_masks()
    assert mask.dtype == bool and mask.sum() == info["action_mask"].sum() > 0
    obs, _reward, _terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
    assert obs.shape == env.observation_space.shape and not truncated


def test_stable_baselines3_make_vec_env_and_a_few_maskable_ppo_updates():
    """make_vec_env asks for render_mode="rgb_array"; sb3-contrib reads the masks through it."""
    _render_deps()
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.env_util import make_vec_env
    venv = make_vec_env(ENV_ID, n_envs=2, seed=0, env_kwargs={"players": 3, "max_cycles": 3})
    assert venv.render_mode == "rgb_array"
    obs = venv.reset()
    masks = get_action_masks(venv)
    assert obs.shape == (2, cyclades.env.LAYOUT.size) and masks.shape == (2, cyclades.env.ACTION_SPACE.n)
    assert all(m.any() for m in masks)
    pictures = venv.env_method("render")
    assert [p.shape for p in pictures] == [(720, 960, 3)] * 2 and pictures[0].dtype == np.uint8
    model = MaskablePPO("MlpPolicy", venv, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64


# --- rendering ------------------------------------------------------------------------------------

def _played(seed=5, decisions=250, players=3, **options):
    import random
    g = cyclades.new_game(players=players, seed=seed, max_cycles=40, **options)
    rng = random.Random(seed)
    for _ in range(decisions):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def _near(picture, colour, tolerance=24):
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(picture.astype(int) - rgb).max(axis=2) <= tolerance).sum())


def test_rgb_array_is_the_board_with_the_factions_pieces():
    _render_deps()
    from cyclades.env.board_image import art
    start = cyclades.new_game(players=3, seed=5)
    later = _played()
    env = CycladesEnv(players=3, render_mode="rgb_array")
    env.reset(seed=5)
    first = env.render()
    assert first.shape == (720, 960, 3) and first.dtype == np.uint8
    env.game = later
    picture = env.render()
    sea = "#174a73"
    assert _near(first, sea) > 20_000 and _near(picture, sea) > 20_000   # the board is drawn
    for p in range(3):  # every faction's colour covers more of the board once it has pieces on it
        colour = art().colours[p]
        assert _near(picture, colour, 12) > _near(first, colour, 12) + 200, p
    assert start.board.ids == later.board.ids


def test_human_prints_the_position_and_ansi_returns_it(capsys):
    env = CycladesEnv(players=3, render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    printed = capsys.readouterr().out
    ansi = CycladesEnv(players=3, render_mode="ansi")
    ansi.reset(seed=1)
    assert ansi.render() == printed.rstrip("\n") and "player_0" in printed
    with pytest.raises(ValueError, match="rgb_array"):
        CycladesEnv(render_mode="video")


def test_the_picture_draws_every_mode_and_a_battle():
    """Maps and tile boards, classic isles grown larger, 6 factions; the attacker's units in a
    battle's area (as the browser draws them) and the battle's mark."""
    _render_deps()
    from cyclades.env.board_image import board_rgb, board_svg
    for options in (dict(players=6), dict(players=4, ruleset="classic"), dict(players=2)):
        g = _played(seed=2, decisions=150, **options)
        svg = board_svg(g)
        assert svg.count(">player_") == len(g.view(None)["players"])  # a status line each
        assert board_rgb(g, size=(480, 360)).shape == (360, 480, 3)
    g = _battle()
    assert g.view(None)["decision"]["kind"] == "battle"
    svg = board_svg(g)
    assert 'stroke="#ff3b2f"' in svg      # the battle's mark
    import re
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    # on corinth, the attacker's three Troops beside the defender's Troop, mercenary and Ajax
    assert {"3 Troops", "1 mercenary Troop", "Ajax (Hero)"} <= set(titles) and titles.count("1 Troop") == 2


def _battle():
    """docs/scenarios.md's example played to its battle (a map board: no cells)."""
    import re

    import yaml
    text = (ROOT / "docs" / "scenarios.md").read_text()
    g = cyclades.Game.from_scenario(yaml.safe_load(re.search(r"## Example\n\n```yaml\n(.*?)```", text, re.S)[1]))
    for move in ("Build a Fortress on argos", "Place a Troop on argos", "Land Move for 1 GP",
                 "Move from argos", "Take 3 Troop", "Move to corinth"):
        g.apply(next(a for a in g.legal_actions() if str(a) == move))
    return g


def test_the_figures_and_styles_are_the_browsers():
    """The picture reads the browser's figures and colours from its JavaScript; what it writes
    itself (inline figures, styles) is checked against the JavaScript and CSS files."""
    import re

    from cyclades.env import board_image as bi
    static = ROOT / "src" / "cyclades" / "web" / "static"
    js, css = (static / "board-art.js").read_text(), (static / "style.css").read_text()
    a = bi.art()
    assert set(a.beast_of.values()) <= set(a.beasts) and "kraken" in a.beast_of
    assert set(a.building_icon) == {"port", "fortress", "temple", "university"}
    assert len(a.colours) == len(a.ink) == len(a.shapes) == 6 and a.buildings["metropolis"]["letter"] == "M"
    for name in ("MAST", "SAIL", "HULL", "OARS", "HERO_PLUME", "METROPOLIS", "METROPOLIS_DOORS", "HORN",
                 "PROSPERITY_HORN", "VOLCANO", "LAVA", "PRIESTESS"):
        assert getattr(bi, name) in js, name
    for cls, props in bi.STYLE.items():
        selector = "svg.board" if cls == "board" else "." + cls
        rules = re.findall(r"(?:^|[\s,>])" + re.escape(selector) + r"\s*\{([^}]*)\}", css, re.M)
        assert rules, selector
        declared = {k.strip(): v.strip() for rule in rules for k, v in
                    (d.split(":", 1) for d in rule.split(";") if ":" in d)}
        for prop, value in props.items():
            assert declared.get(prop) == value, (selector, prop)


# --- PettingZoo: the global state -------------------------------------------------------------------

def test_pettingzoo_state_is_the_whole_position():
    """state(): every purse known (no player's observation has the others'), rows in faction
    order, the same whoever is to act; it moves when a hidden purse changes."""
    from cyclades.agents.encoding import LAYOUT
    from cyclades.env.pettingzoo import raw_env
    e = raw_env(players=4)
    e.reset(seed=2)
    assert e.state_space.shape == e.state().shape == (LAYOUT.size,)
    rng = np.random.default_rng(0)
    for _ in range(60):
        mask = e.action_mask(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(mask))))
    g = e.game
    players = LAYOUT.segment("players")
    rows = e.state()[players.start:players.stop].reshape(players.shape)
    cols = list(players.axes[1])
    assert list(rows[:4, cols.index("gp")]) == [g.purse(p) for p in range(4)]
    assert rows[:4, cols.index("gp_known")].all()
    before = e.state()
    seen = {a: e.observe(a)["observation"].copy() for a in e.agents}
    hidden = next(p for p in range(4) if p != g.to_move)
    g.state.gp[hidden] += 3
    assert not np.array_equal(e.state(), before)
    observer = next(p for p in range(4) if p != hidden)
    e.game_encoder = type(e.game_encoder)()  # nothing remembered: the vector read afresh
    assert np.array_equal(e.observe(f"player_{observer}")["observation"], seen[f"player_{observer}"])


# --- decisions with a single legal action --------------------------------------------------------------

def test_pettingzoo_skip_forced_takes_them_and_records_them():
    from cyclades.env.pettingzoo import env
    e = env(players=3, max_cycles=12, skip_forced=True)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    steps, skipped = 0, []
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        skipped += info["skipped"]
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 1  # never asked for a decision that is no choice
        e.step(int(rng.choice(legal)))
        steps += 1
    g = e.unwrapped.game
    record = g.record()
    assert skipped and len(record["actions"]) == steps + len(skipped)
    assert cyclades.Game.from_record(record).result() == g.result()
    assert _decisions_of(record, None).count(True) == len(skipped)


def _decisions_of(record, player):
    """Replays a record: for each decision, whether it was forced (one legal action), for
    `player`'s decisions only (None: everyone's)."""
    g = cyclades.Game.from_record({**record, "actions": []})
    out = []
    for d in record["actions"]:
        if player is None or g.to_move == player:
            out.append(len(g.legal_actions()) == 1)
        g.apply(cyclades.Action.from_json(d))
    return out


def test_gym_skip_forced_takes_the_learners_forced_decisions():
    env = CycladesEnv(players=3, opponents="greedy", max_cycles=10, skip_forced=True)
    obs, info = env.reset(seed=6)
    rng = np.random.default_rng(6)
    taken, skipped = 0, list(info["skipped"])
    while True:
        mask = env.action_masks()
        assert mask.sum() > 1
        _obs, _reward, terminated, _truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        taken += 1
        skipped += info["skipped"]
        if terminated:
            break
    assert skipped and {who for who, _ in skipped} == {"player_0"}
    mine = _decisions_of(env.game.record(), 0)
    assert len(mine) == taken + len(skipped) and mine.count(True) == len(skipped)


# --- the bots in other frameworks' loops ---------------------------------------------------------------

def test_greedy_and_mcts_play_through_a_pettingzoo_aec_loop():
    from cyclades.env.pettingzoo import BotPolicy, env
    e = env(players=3, max_cycles=4)
    e.reset(seed=8)
    bots = {a: BotPolicy(name, seed=k) for k, (a, name) in
            enumerate(zip(e.possible_agents, ["greedy", "mcts:iterations=8", "random"]))}
    assert repr(bots["player_1"]) == "BotPolicy(MCTSAgent(seed=1, iterations=8))"
    finals = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last(observe=False)
        if terminated or truncated:
            finals[agent] = reward
        e.step(None if terminated or truncated else bots[agent](e, agent))
    assert e.unwrapped.game.is_over and sum(finals.values()) == pytest.approx(1.0)


def test_greedy_and_mcts_play_through_openspiel_evaluate_bots():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from cyclades.env.openspiel import AgentBot
    game = pyspiel.load_game("cyclades", {"players": 3, "max_cycles": 4})
    bots = [AgentBot("greedy", seed=1), AgentBot("mcts:iterations=8", seed=2), AgentBot("random", seed=3)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0))
    assert sum(returns) == pytest.approx(1.0) and all(r in (0.0, 0.5, 1 / 3, 1.0) for r in returns)
    assert isinstance(bots[0], pyspiel.Bot)


# --- OpenSpiel: the deal, decisions with a single legal action ---------------------------------------

def test_openspiel_default_deals_afresh_from_chance():
    """Every new_initial_state() opens on chance nodes drawing the deal (four bytes of its
    seed); `seeds` 1 keeps one fixed deal."""
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
    import cyclades.env.openspiel  # noqa: F401  (registers "cyclades")
    game = pyspiel.load_game("cyclades", {"players": 3})
    deals = set()
    for outcomes in ((0, 0, 0, 9), (0, 0, 1, 0), (100, 3, 7, 1)):
        state = game.new_initial_state()
        for b in outcomes:
            assert state.is_chance_node() and len(state.chance_outcomes()) == 256
            state.apply_action(b)
        assert not state.is_chance_node()
        seed = int.from_bytes(bytes(outcomes), "big")
        same = pyspiel.load_game("cyclades", {"players": 3, "seed": seed, "seeds": 1}).new_initial_state()
        assert state.engine.to_json() == same.engine.to_json()
        deals.add(state.engine.to_json())
    assert len(deals) == 3
    fixed = pyspiel.load_game("cyclades", {"players": 3, "seeds": 1})
    assert not fixed.new_initial_state().is_chance_node()
    assert fixed.new_initial_state().engine.to_json() == fixed.new_initial_state().engine.to_json()


def test_openspiel_skip_forced_keeps_them_in_the_history_and_record():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
    import cyclades.env.openspiel
    game = pyspiel.load_game("cyclades", {"players": 3, "max_cycles": 6, "skip_forced": True})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
            continue
        assert len(state.legal_actions()) > 1
        state.apply_action(int(rng.choice(state.legal_actions())))
        decisions += 1
    record = state.engine.record()  # the players' decisions and chance's (chance="explicit")
    chance = {k.name for k in CHANCE_KINDS}
    made = [a["kind"] not in chance for a in record["actions"]]
    skipped = sum(forced for forced, by_player in zip(_decisions_of(record, None), made) if by_player)
    assert skipped > 0 and sum(made) == decisions + skipped
    assert sum(not e.startswith("d:") for e in state.public) == sum(made)
    assert cyclades.Game.from_record(record).result() == state.engine.result()
