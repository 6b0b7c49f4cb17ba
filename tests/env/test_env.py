"""Reinforcement-learning environments (docs/rl.md): the fixed action space and
observation vector, the PettingZoo, Gymnasium and OpenSpiel games built on them.

The rules these check: R26 (every decision is a short list of actions: the mask is exactly
that list), R24 (an observation holds only what its player may know), R21/R22 (who wins,
team play: the rewards), R3 (the battle die: OpenSpiel's chance nodes)."""
import random
import types

import pytest

import cyclades
from cyclades.content.rulesets import RULESETS

np = pytest.importorskip("numpy", reason="numpy (the 'rl' extra) is not installed")

from positions import scenario  # noqa: E402
from repository import ROOT  # noqa: E402

from cyclades.agents.encoding import (  # noqa: E402
    ACTION_SPACE,
    LAYOUT,
    ActionSpaceError,
    ObservationEncoder,
    decode,
    describe_observation,
    encode,
    final_rewards,
    legal_mask,
)

MODES = [
    pytest.param(dict(players=3), id="legendary-3"),
    pytest.param(dict(players=4), id="legendary-4"),
    pytest.param(dict(players=5), id="legendary-5"),
    pytest.param(dict(players=3, maelstrom=False), id="no-maelstrom-3"),
    pytest.param(dict(players=5, maelstrom=False), id="no-maelstrom-5"),
    pytest.param(dict(players=4, teams=True), id="teams-4"),
    pytest.param(dict(players=4, teams=True, team_goal=4), id="teams-4-goal-4"),
    pytest.param(dict(players=6), id="teams-6"),
    pytest.param(dict(players=2), id="two-players"),
] + [
    pytest.param(dict(players=n, ruleset="classic"), id=f"classic-{n}",
                 marks=pytest.mark.skipif("classic" not in RULESETS,
                                          reason="the classic ruleset is not in RULESETS yet"))
    for n in (2, 3, 4, 5)
]


def _random_game(seed, steps=None, **options):
    """A game played at random for `steps` decisions (to the end if None)."""
    g = cyclades.new_game(seed=seed, max_cycles=options.pop("max_cycles", 60), **options)
    rng = random.Random(seed)
    k = 0
    while not g.is_over and (steps is None or k < steps):
        g.apply(rng.choice(g.legal_actions()))
        k += 1
    return g


def _any_board():
    """A stand-in board naming MAX_AREAS areas "#0".."#63", as `decode` does without a board."""
    n = ACTION_SPACE.max_areas
    ids = tuple(f"#{k}" for k in range(n))
    return types.SimpleNamespace(ids=ids, index={a: k for k, a in enumerate(ids)})


# --- the action space ------------------------------------------------------------------------

def test_action_space_every_slot_decodes_and_encodes_back():
    """R26: the fixed action space numbers (kind, what, where, n) one to one."""
    board = _any_board()
    seen = set()
    for i in range(ACTION_SPACE.n):
        a = ACTION_SPACE.decode(i, board)
        assert ACTION_SPACE.encode(a, board) == i
        seen.add(a)
    assert len(seen) == ACTION_SPACE.n
    assert {b.kind for b in ACTION_SPACE.blocks} >= set(cyclades.engine.actions.DESCRIPTIONS)


def test_action_space_layout_is_documented_order():
    """The blocks follow DESCRIPTIONS, back to back; a kind's slots run what x where x n."""
    from cyclades.engine.actions import DESCRIPTIONS
    # then the bids above the 61 amounts (0..60) of the first block (WIDENED)
    assert [b.kind for b in ACTION_SPACE.blocks] == [*DESCRIPTIONS, "bid"]
    nxt = 0
    for b in ACTION_SPACE.blocks:
        assert b.offset == nxt
        nxt += b.size
    assert nxt == ACTION_SPACE.n
    bid = ACTION_SPACE.block_of("bid")
    board = _any_board()
    # "Offer 7 GP to <the second god>" sits at offset + 1 * (bid range) + 7
    second = bid.whats[1]
    assert encode(cyclades.Action("bid", second, "", 7), board) == bid.offset + bid.ns + 7
    dest = ACTION_SPACE.block_of("destination")
    assert decode(dest.offset + 5) == cyclades.Action("destination", "", "#5", 0)


@pytest.mark.parametrize("action", [
    cyclades.Action("fly_away"),                               # no such kind
    cyclades.Action("bid", "apollo", "", 3),                   # not a god of the auction
    cyclades.Action("bid", "ares", "", 999),                   # n beyond the bid range
    cyclades.Action("destination", "", "atlantis"),            # not an area of the board
    cyclades.Action("end_turn", "", "", 1),                    # a field the kind does not take
    cyclades.Action("end_turn", "troop"),
])
def test_action_outside_the_space_raises(action):
    """An action with no slot is an error, never silently dropped."""
    g = cyclades.new_game(players=3, seed=0)
    with pytest.raises(ActionSpaceError):
        encode(action, g.board)


def test_index_outside_the_space_raises():
    with pytest.raises(ActionSpaceError):
        decode(ACTION_SPACE.n)
    with pytest.raises(ActionSpaceError):
        decode(-1)


def test_a_new_kind_gets_slots_from_its_declaration(monkeypatch):
    """A kind the engine declares (engine/actions.py) is laid out from what its arguments range
    over: `what` over its vocabularies, `where` over the areas, `n` up to its bound; appended at
    the end, so that the slots of the other kinds stay where they are."""
    from cyclades.agents import encoding
    from cyclades.engine import actions
    summon = actions.ActionKind("summon", "Summon {what} on {where}", (actions.CREATURE,), actions.AREA,
                                actions.COUNT)
    monkeypatch.setitem(actions.KINDS, "summon", summon)
    space = encoding.ActionSpace(kinds=[k.name for k in actions.PLAYER_KINDS] + ["summon"])
    block = space.block_of("summon")
    assert block.whats == actions.CREATURE.words and block.areas == encoding.MAX_AREAS
    assert block.ns == actions.COUNT.high + 1
    assert block.offset == ACTION_SPACE.n
    a = cyclades.Action("summon", "kraken", "#3", 2)
    assert space.decode(space.encode(a, _any_board())) == a


def test_every_kind_a_player_takes_has_slots_and_no_chance_kind_has():
    """The action space is the engine's declarations of the kinds players take; chance outcomes
    (a die's face, a card drawn) are numbered apart (env/openspiel.py: CHANCE_SPACE)."""
    from cyclades.agents import encoding
    from cyclades.engine.actions import KINDS
    # (and the bids above 60 GP after them: WIDENED)
    assert [b.kind for b in ACTION_SPACE.blocks] == [k for k, d in KINDS.items() if not d.chance] + ["bid"]
    for b in ACTION_SPACE.blocks:
        what, where, n = encoding.KIND_ARGS[b.kind]
        kind = KINDS[b.kind]
        assert what == tuple(a.name for a in kind.what) and bool(where) == (kind.where is not None)
        assert (n is None) == (kind.n is None)


@pytest.mark.parametrize("options", MODES)
def test_mask_equals_the_legal_set(options):
    """R26: over a random game, the mask is non-zero exactly on the legal actions, each
    legal action has its own slot, and every observation fits its space."""
    seed = 11
    g = cyclades.new_game(seed=seed, max_cycles=40, **options)
    enc = ObservationEncoder()
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        p, legal = g.to_move, g.legal_actions()
        mask = legal_mask(g, p)
        slots = np.flatnonzero(mask)
        assert len(slots) == len(set(legal))
        assert {decode(i, g.board) for i in slots} == set(legal)
        if steps % 10 == 0:
            others = [q for q in range(g.state.n) if q != p]
            assert not legal_mask(g, others[0]).any()  # not their decision: nothing legal
            x = enc.encode(g, p)
            assert x.shape == (LAYOUT.size,) and (x >= 0).all() and (x <= LAYOUT.high).all()
        g.apply(rng.choice(legal))
        steps += 1
    for q in range(g.state.n):
        assert not legal_mask(g, q).any()
        enc.encode(g, q)


# --- the observation -------------------------------------------------------------------------

HIDDEN_MODES = [dict(players=3), dict(players=4, teams=True), dict(players=2)]


def _hide_and_seek(g, p):
    """A copy of g that differs only in facts hidden from p (R24): the purses of p's rivals,
    the order of the three piles, the generator."""
    other = g.copy()
    s = other.state
    for q in range(s.n):
        if not g.friends(p, q):
            s.gp[q] += 17
    rng = random.Random(5)
    for pile in (s.creature_deck, s.hero_deck, s.bonus_stack):
        rng.shuffle(pile)
    s.creature_deck.reverse()  # a real change even when the shuffle is the identity
    s.rng ^= 0x5DEECE66D
    other._legal = None
    return other


def _observers():
    """Every way the environments observe a game: (name, f(game, player) -> comparable)."""
    enc = ObservationEncoder()
    out = [("vector", lambda g, p: enc.encode(g, p).tolist()),
           ("mask", lambda g, p: legal_mask(g, p).tolist())]
    try:
        from cyclades.env.pettingzoo import raw_env
    except ImportError:
        pass
    else:
        envs = {}

        def pettingzoo(g, p):
            key = (g.options["players"], bool(g.options.get("teams")))
            e = envs.setdefault(key, raw_env(players=key[0], teams=key[1]))
            e.game = g
            o = e.observe(f"player_{p}")
            return o["observation"].tolist(), o["action_mask"].tolist()
        out.append(("pettingzoo", pettingzoo))
    try:
        import pyspiel

        from cyclades.env.openspiel import CycladesObserver
    except ImportError:
        pass
    else:
        for recall in (False, True):
            obs = CycladesObserver(pyspiel.IIGObservationType(perfect_recall=recall), None)

            def openspiel(g, p, obs=obs):
                state = types.SimpleNamespace(engine=g, public=["0:12", "d:3"])
                obs.set_from(state, p)
                return obs.tensor.tolist(), obs.string_from(state, p)
            out.append((f"openspiel-recall-{recall}", openspiel))
    return out


@pytest.mark.parametrize("options", HIDDEN_MODES, ids=["3", "teams-4", "two-players"])
def test_observation_ignores_hidden_facts(options):
    """R24: no observation, mask or OpenSpiel string changes when only facts hidden from the
    observer change (another player's GP, the order of the piles, the generator)."""
    observers = _observers()
    for steps in (60, 170):
        g = _random_game(3, steps=steps, **options)
        for p in range(g.state.n):
            other = _hide_and_seek(g, p)
            assert other.state.gp != g.state.gp and other.state.rng != g.state.rng
            for name, observe in observers:
                assert observe(g, p) == observe(other, p), name


def test_observation_shows_what_the_player_knows():
    """R24, the other way: the player's own purse and every public fact are in the vector;
    rivals' purses are flagged unknown (teammates' shared purse is known, R22)."""
    enc = ObservationEncoder()
    g = _random_game(3, steps=80, players=3)
    p = g.to_move
    x = enc.encode(g, p)
    d = describe_observation(x, g.board)
    assert d["players"]["player+0"].get("gp", 0) == g.purse(p)
    assert d["players"]["player+0"]["gp_known"] == 1 and "gp_known" not in d["players"]["player+1"]
    assert d["global"]["cycle"] == g.state.cycle and d["global"][f"phase={g.state.phase}"] == 1
    for a, area in enumerate(g.board.ids):
        if g.board.is_land[a] and g.state.troops[a]:
            assert d["areas"][area]["troops"] == g.state.troops[a]
            owner = (g.state.ctrl[a] - p) % g.state.n
            assert d["areas"][area][f"owner=player+{owner}"] == 1
    richer = g.copy()
    richer.state.gp[p] += 3
    assert not np.array_equal(x, enc.encode(richer, p))  # my own purse: known
    t = _random_game(3, steps=80, players=4, teams=True)
    q = t.to_move
    mate = t.teammates(q)[0]
    dt = describe_observation(enc.encode(t, q))
    assert dt["players"][f"player+{(mate - q) % 4}"]["gp_known"] == 1
    assert dt["players"][f"player+{(mate - q) % 4}"]["teammate"] == 1


FAST_MODES = [
    pytest.param(dict(players=3), id="legendary-3"),
    pytest.param(dict(players=5, maelstrom=False), id="no-maelstrom-5"),
    pytest.param(dict(players=4, teams=True), id="teams-4"),
    pytest.param(dict(players=6), id="teams-6"),
    pytest.param(dict(players=2), id="two-players"),
] + [pytest.param(dict(players=3, ruleset="classic"), id="classic-3",
                  marks=pytest.mark.skipif("classic" not in RULESETS,
                                           reason="the classic ruleset is not in RULESETS yet"))]


@pytest.mark.parametrize("options", FAST_MODES)
def test_fast_path_gives_exactly_the_reference_arrays(options):
    """The environments' fast path (incremental.GameEncoder: read from the state, only
    the changed numbers rewritten) gives, at every decision of random games and for every
    faction, the very vector and mask of the straightforward encoding from the player's view
    (ObservationEncoder, legal_mask); R24: it shows a player nothing more, in particular not
    the hidden facts the view leaves out (rivals' purses, piles, generator), even though it
    follows one game for all factions."""
    from cyclades.env.incremental import GameEncoder
    ref = ObservationEncoder()
    for seed in (1, 2):
        g = cyclades.new_game(seed=seed, max_cycles=25, **options)
        fast = GameEncoder()
        rng = random.Random(seed)
        seen = set()
        step = 0
        while True:
            # the faction to move every time (as the environments ask), the others now and then
            # (their vectors then span several decisions), all of them at the end
            who = [q for q in range(g.state.n) if q == g.to_move or g.is_over or rng.random() < 0.25]
            for p in who:
                x = fast.observation(g, p)
                assert np.array_equal(x, ref.encode(g, p)), (options, seed, step, p)
                assert np.array_equal(fast.mask(g, p), legal_mask(g, p)), (options, seed, step, p)
                seen.update(describe_observation(x, g.board).get("decision", {}))
                if step % 40 == 7 and p == g.to_move:
                    # R24: a game that differs only in what p may not know looks the same to
                    # p, through a fresh encoder and through this one (which follows g)
                    other = _hide_and_seek(g, p)
                    assert np.array_equal(GameEncoder().observation(other, p), x)
                    assert np.array_equal(fast.observation(other, p), x)
                    fast.observation(g, p)  # back to g: the encoder starts it afresh
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
            step += 1
        x = fast.observation(g, 0)
        assert x.flags.writeable and fast.observation(g, 0) is not x  # copies, the caller's own
    assert len(seen) > 4  # several kinds of decision were seen


def test_fast_path_follows_a_game_through_the_environments():
    """The PettingZoo and Gymnasium environments observe through the fast path: over whole
    games their observations and masks are the reference's; PettingZoo's are read-only (to
    keep, not to change: tests/env/test_env_frozen.py), Gymnasium's the caller's own."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.gym import CycladesEnv
    from cyclades.env.pettingzoo import raw_env
    ref = ObservationEncoder()
    e = raw_env(players=4, teams=True)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        p = int(agent.split("_")[1])
        assert np.array_equal(obs["observation"], ref.encode(e.game, p))
        assert np.array_equal(obs["action_mask"], legal_mask(e.game, p))
        for array in obs.values():
            with pytest.raises(ValueError):
                array[:] = 7  # read-only: the environment may write into it once it is dropped
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = CycladesEnv(players=3, seat=2)
    obs, info = g.reset(seed=4)
    while True:
        assert np.array_equal(obs, ref.encode(g.game, 2))
        assert np.array_equal(info["action_mask"], legal_mask(g.game, 2))
        assert np.array_equal(g.action_masks(), info["action_mask"].astype(bool))
        obs, _, terminated, _, info = g.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated:
            break


def test_describe_observation_names_every_segment():
    """The debugging helper reads back the board's static facts and the decision."""
    g = cyclades.new_game(players=3, seed=4)
    d = describe_observation(ObservationEncoder().encode(g, g.to_move), g.board)
    assert set(d) >= {"global", "players", "areas", "adjacency", "decision"}
    a = g.board.ids[0]
    assert set(d["adjacency"][a]) == {g.board.ids[b] for b in g.board.adj[0]}
    assert d["decision"]["decider=player+0"] == 1
    with pytest.raises(ValueError):
        describe_observation(np.zeros(3))


# --- rewards -------------------------------------------------------------------------------------

@pytest.mark.parametrize("result, expected", [
    ({"over": True, "winners": [2], "metropolises": [1, 2, 3]}, [0.0, 0.0, 1.0]),
    ({"over": True, "winners": [0, 2], "metropolises": [3, 2, 3]}, [0.5, 0.0, 0.5]),
    ({"over": True, "winners": [0, 2], "metropolises": [2, 1, 1, 0], "teams": [0, 1, 0, 1]},
     [1.0, 0.0, 1.0, 0.0]),
    ({"over": True, "winners": [0, 1, 2, 3], "metropolises": [1, 1, 1, 1], "teams": [0, 1, 0, 1]},
     [0.5, 0.5, 0.5, 0.5]),
    ({"over": False, "winners": [], "metropolises": [0, 0, 0]}, [0.0, 0.0, 0.0]),
])
def test_final_rewards(result, expected):
    """R21: a win is 1, a loss 0, a shared win split among the winners; R22: in team play each
    faction gets its team's result."""
    assert final_rewards(result) == expected


# --- PettingZoo ------------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # a dict observation, as documented
def test_pettingzoo_api_test():
    """PettingZoo's own API test on the AEC environment (full game, wrapper stack)."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from cyclades.env.pettingzoo import env
    api_test(env(players=3), num_cycles=1000)
    api_test(env(players=2), num_cycles=200)
    if "classic" in RULESETS:
        api_test(env(players=3, ruleset="classic"), num_cycles=200)


def test_pettingzoo_seed_test():
    """PettingZoo's seed test: reset(seed=...) makes two environments run the same way."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import seed_test

    from cyclades.env.pettingzoo import env
    seed_test(lambda: env(players=4, teams=True), num_cycles=60)


def test_pettingzoo_full_game_rewards_only_at_the_end():
    """R21: nothing is paid before the end; then each faction's reward is its share of the
    win, and the agents are the factions the engine waits on."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import raw_env
    e = raw_env(players=2)
    e.reset(seed=8)
    assert e.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    rng = np.random.default_rng(0)
    got = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            got[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        assert agent == f"player_{e.game.to_move}"
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    expected = final_rewards(e.game.result())
    assert got == {f"player_{q}": r for q, r in enumerate(expected)}
    assert sum(got.values()) == 2.0  # two players, two factions each: the winners' pair gets 1 each


def test_pettingzoo_illegal_action():
    """raw_env refuses an action outside the mask and leaves the game unchanged; the wrapped
    env ends the game with -1 for the faction that chose it."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import env, raw_env
    e = raw_env(players=3)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = e.game.to_json()
    with pytest.raises(cyclades.IllegalAction):
        e.step(bad)
    assert e.game.to_json() == before
    w = env(players=3)
    w.reset(seed=1)
    first = w.agent_selection
    w.step(bad)
    assert w.terminations[first] and w.rewards[first] == -1


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
def test_pettingzoo_mask_in_info_without_observation(wrapped):
    """A policy that needs only the mask reads it from `last(observe=False)`'s info: the mover's
    is its legal mask, every other faction's is zero, and no observation vector is built."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import env, raw_env
    e = (env if wrapped else raw_env)(players=4, teams=True)
    e.reset(seed=5)
    raw = e.unwrapped
    rng = random.Random(5)
    for n, agent in enumerate(e.agent_iter(max_iter=400)):
        _, _, terminated, truncated, info = e.last(observe=False)
        if terminated or truncated:
            e.step(None)
            continue
        p = raw.possible_agents.index(agent)
        assert np.array_equal(info["action_mask"], legal_mask(raw.game, p)), n
        assert not any(raw.infos[a]["action_mask"].any() for a in raw.agents if a != agent)
        if n == 150:
            assert not raw.game_encoder._seats  # no faction's vector built in 150 steps
            assert np.array_equal(e.observe(agent)["action_mask"], info["action_mask"])
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert n >= 150


def test_pettingzoo_illegal_action_without_observation():
    """The wrapped env checks an action against the mover's mask even when no observation was
    asked for: an illegal one ends the game with -1 for its faction."""
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import env
    e = env(players=3)
    e.reset(seed=1)
    first = e.agent_selection
    _, _, _, _, info = e.last(observe=False)
    e.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert e.terminations[first] and e.rewards[first] == -1
    assert all(e.rewards[a] == 0 for a in e.agents if a != first)


def test_pettingzoo_reset_seed_replays_the_game():
    pytest.importorskip("pettingzoo")
    from cyclades.env.pettingzoo import raw_env
    a, b = raw_env(players=3), raw_env(players=3)
    a.reset(seed=21)
    b.reset(seed=21)
    assert a.game.to_json() == b.game.to_json()
    assert a.game.to_json() == cyclades.new_game(players=3, seed=21, max_cycles=100).to_json()
    a.reset()
    b.reset()
    assert a.game.to_json() == b.game.to_json()  # unseeded resets follow the first seed


# --- Gymnasium ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [dict(players=3), dict(players=2, seat=1),
                                     dict(players=4, teams=True, seat=2, opponents="greedy")],
                         ids=["3", "two-players", "teams-greedy"])
def test_gym_check_env(options):
    """Gymnasium's env checker passes on the single-agent wrapper."""
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from cyclades.env.gym import CycladesEnv
    check_env(CycladesEnv(**options), skip_render_check=True)


def test_gym_full_game_against_bots():
    """The learner decides only for its own factions (R22: with 2 players, seat 1 plays
    factions 1 and 3); the reward is paid at the end: its side's share of the win."""
    pytest.importorskip("gymnasium")
    from cyclades.env.gym import CycladesEnv
    env = CycladesEnv(players=2, seat=1, opponents="random")
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    total, steps = 0.0, 0
    while True:
        assert env.game.to_move in (1, 3)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        _obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        steps += 1
        if terminated or truncated:
            break
        assert reward == 0
    assert total == final_rewards(env.game.result())[1] and steps > 20


def test_gym_invalid_action_penalized_or_raised():
    """An action outside the mask: penalised (default), the game unchanged, or raised."""
    pytest.importorskip("gymnasium")
    from cyclades.env.gym import CycladesEnv
    env = CycladesEnv(players=3, invalid_penalty=-0.5)
    env.reset(seed=2)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game.to_json()
    _, reward, terminated, truncated, info = env.step(bad)
    assert reward == -0.5 and not terminated and not truncated and info["invalid_action"]
    assert env.game.to_json() == before
    strict = CycladesEnv(players=3, invalid_action="raise")
    strict.reset(seed=2)
    with pytest.raises(cyclades.IllegalAction):
        strict.step(bad)


@pytest.mark.parametrize("action", [2.5, float("nan"), np.float32(3.5), "3", None])
def test_an_action_that_is_no_whole_number_is_refused_not_cut_to_another(action):
    """int() would make 2.5 slot 2, another action than the learner's; a whole number in any
    form (2.0, a numpy integer, a 0-d array from a policy) is a slot, as before."""
    pytest.importorskip("gymnasium")
    from cyclades.agents.encoding import ActionSpaceError
    from cyclades.env.gym import CycladesEnv
    env = CycladesEnv(players=3, invalid_action="raise")
    env.reset(seed=2)
    before = env.game.to_json()
    with pytest.raises(ActionSpaceError, match=r"an action index is a whole number, not "):
        env.step(action)
    assert env.game.to_json() == before
    legal = int(np.flatnonzero(env.action_masks())[0])
    for same in (float(legal), np.int64(legal), np.array(legal)):
        probe = CycladesEnv(players=3, invalid_action="raise")
        probe.reset(seed=2)
        probe.step(same)
        assert probe.game.state.version == env.game.state.version + 1


@pytest.mark.parametrize("options, words", [
    ({"shaping_gamma": float("nan")}, "shaping_gamma is a discount above 0 and at most 1, not nan"),
    ({"shaping_gamma": 1.5}, "shaping_gamma is a discount above 0 and at most 1, not 1.5"),
    ({"shaping_gamma": 0}, "shaping_gamma is a discount above 0 and at most 1, not 0"),
    ({"invalid_penalty": float("-inf")}, "invalid_penalty is a finite number, not -inf"),
    ({"invalid_penalty": "big"}, "invalid_penalty is a finite number, not 'big'"),
    ({"max_cycles": 0}, "max_cycles is 1 or more, not 0"),
    ({"players": "3"}, "players is a whole number, not '3'"),
])
def test_gym_options_that_would_spoil_the_returns_are_refused(options, words):
    """NaN passes every range check written as comparisons and then poisons every return; a
    game limited to 0 cycles never stops. Refused when the environment is made."""
    pytest.importorskip("gymnasium")
    from cyclades.env.gym import CycladesEnv
    with pytest.raises(ValueError) as e:
        CycladesEnv(**options)
    assert str(e.value) == words


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_vector_env_steps_with_legal_masked_actions(asynchronous):
    """`make_vector_env(2, asynchronous=...)` (Gymnasium's SyncVectorEnv and
    AsyncVectorEnv over CycladesEnv): masks in `infos["action_mask"]` and from
    `vector_action_masks`, legal actions accepted, a finished game reset by Gymnasium."""
    pytest.importorskip("gymnasium")
    import gymnasium

    from cyclades.env import make_vector_env
    from cyclades.env.gym import vector_action_masks
    envs = make_vector_env(2, asynchronous=asynchronous, players=3, max_cycles=3)
    try:
        assert isinstance(envs, gymnasium.vector.AsyncVectorEnv if asynchronous
                          else gymnasium.vector.SyncVectorEnv)
        obs, infos = envs.reset(seed=7)
        assert obs.shape == (2, LAYOUT.size) and obs.dtype == np.float32
        rng = np.random.default_rng(7)
        finished = 0
        for _ in range(60):
            masks = infos["action_mask"]
            assert masks.shape == (2, ACTION_SPACE.n) and masks.dtype == np.int8
            assert np.array_equal(vector_action_masks(envs), masks.astype(bool))
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
            obs, rewards, terminated, truncated, infos = envs.step(actions)
            assert not infos.get("invalid_action", np.zeros(2, bool)).any()
            assert not truncated.any()
            finished += int(terminated.sum())
            for k in np.flatnonzero(terminated):
                assert rewards[k] in (0.0, 0.5, 1.0) and not infos["action_mask"][k].any()
        assert finished >= 1  # three cycles: games end, and go on after Gymnasium's reset
    finally:
        envs.close()


def test_gym_reset_seed_makes_opponents_replay():
    pytest.importorskip("gymnasium")
    from cyclades.env.gym import CycladesEnv
    runs = []
    for _ in range(2):
        env = CycladesEnv(players=3, seat=1, opponents=["random", "greedy"])
        env.reset(seed=9)
        for _ in range(30):
            if env.step(int(np.flatnonzero(env.action_masks())[-1]))[2]:
                break
        runs.append(env.game.to_json(history=True))
    assert runs[0] == runs[1]


# --- OpenSpiel ------------------------------------------------------------------------------------

def _pyspiel():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (extra 'openspiel')")
    import cyclades.env.openspiel  # noqa: F401  (registers "cyclades")
    return pyspiel


@pytest.mark.parametrize("params, words", [
    ({"seeds": -1}, "seeds is 0 (a fresh deal), 1 (the deal of seed) or more, not -1"),
    ({"max_game_length": 0}, "max_game_length is 1 or more, not 0"),
    ({"max_cycles": -3}, "max_cycles is 1 or more, not -3"),
])
def test_openspiel_parameters_a_game_cannot_be_played_with_are_refused(params, words):
    """seeds -1 left the opening chance node without outcomes, a length of 0 ended every game
    at its first move, a cycle limit of -3 after its first cycle (0 is no limit, as documented)."""
    pyspiel = _pyspiel()
    with pytest.raises(ValueError) as e:
        pyspiel.load_game("cyclades", params)
    assert str(e.value) == words
    assert not pyspiel.load_game("cyclades", {"max_cycles": 0}).new_initial_state().is_terminal()


def test_openspiel_random_sim_test():
    """OpenSpiel's own random simulation test, with serialization, in two modes."""
    pyspiel = _pyspiel()
    pyspiel.random_sim_test(pyspiel.load_game("cyclades", {"players": 3}), num_sims=1,
                            serialize=False, verbose=False)
    pyspiel.random_sim_test(pyspiel.load_game("cyclades", {"players": 2, "seeds": 50}), num_sims=1,
                            serialize=True, verbose=False)


def _to_first_die(pyspiel, players=3, seed=0):
    """A state at a battle die's chance node, the way there random (cards drawn included): in
    the game of `seed`, or of the next seed whose random game has a battle."""
    from cyclades.env.openspiel import DIE_PROBS
    for s in range(seed, seed + 50):
        game = pyspiel.load_game("cyclades", {"players": players, "seed": s, "seeds": 1})
        state = game.new_initial_state()
        rng = random.Random(s)
        while not state.is_terminal():
            if state.is_chance_node():
                if state.chance_outcomes() == list(DIE_PROBS):
                    return game, state
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no battle in 50 random games")


def test_openspiel_dice_are_chance_nodes():
    """R3: a decision that needs a die waits at a chance node with the die's faces 0, 1, 1,
    2, 2, 3, and goes on with exactly the dice chance gave: the engine's own chance decisions
    (chance="explicit"), the same as dice given in advance (a scenario's `dice`)."""
    pyspiel = _pyspiel()
    from cyclades.engine.play import settle
    from cyclades.env.openspiel import DIE_PROBS
    _game, state = _to_first_die(pyspiel)
    assert sum(p for _, p in DIE_PROBS) == pytest.approx(1)
    before = state.engine.copy()
    given = []
    while state.is_chance_node() and state.chance_outcomes() == list(DIE_PROBS):
        d = (3, 0, 2, 1)[len(given) % 4]
        given.append(d)
        state.apply_action(d)
    forced = before.copy()
    forced.state.dice = list(given)  # dice given in advance resolve without waiting
    settle(forced)
    assert not forced.state.dice  # every die given was used
    forced.state.version = state.engine.state.version  # (one decision per die there)
    assert forced.to_json() == state.engine.to_json()
    assert state.information_state_string(0).startswith(" ".join(state.public))


def test_openspiel_resample_keeps_the_information_state():
    """R24: a resampled state looks the same to the player (information state, observation,
    legal actions) while the hidden facts are drawn again."""
    pyspiel = _pyspiel()
    game = pyspiel.load_game("cyclades", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.move_number() < 150 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)
    assert other.legal_actions() == state.legal_actions()
    assert other.engine.state.rng != state.engine.state.rng


def test_openspiel_ismcts_and_mcts_run():
    """OpenSpiel's ISMCTS (with resampling) and MCTS choose a legal action unchanged."""
    pyspiel = _pyspiel()
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("cyclades", {"players": 3})
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.move_number() < 100 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4,
                           random_state=np.random.RandomState(2), allow_inconsistent_action_sets=True)
    assert bot.step(state) in state.legal_actions()
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(3))
    assert bot.step(state) in state.legal_actions()


def test_openspiel_serialization_round_trip():
    pyspiel = _pyspiel()
    game, state = _to_first_die(pyspiel, seed=4)
    state.apply_action(1)
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()


# --- the example ------------------------------------------------------------------------------------

def test_example_masked_random_pettingzoo(capsys):
    pytest.importorskip("pettingzoo")
    import importlib.util
    path = ROOT / "examples" / "masked_random_pettingzoo.py"
    spec = importlib.util.spec_from_file_location("masked_random_pettingzoo", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--games", "2", "--players", "3"]) > 0
    out = capsys.readouterr().out
    assert "steps/s" in out and "the games interleaved" in out


def test_example_train_maskable_ppo(tmp_path, capsys):
    """The training example runs (a few hundred timesteps), evaluates before and after
    with Wilson intervals and writes its model, learning curve and figures."""
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra 'train')")
    pytest.importorskip("torch", reason="torch is not installed (extra 'train')")
    import importlib.util
    import json
    path = ROOT / "examples" / "train_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lo, hi = mod.wilson(10, 30)
    assert lo < 10 / 30 < hi and lo > 0 and hi < 1
    assert mod.wilson(0, 5)[0] == 0 and mod.wilson(5, 5)[1] == 1
    out = tmp_path / "run"
    results = mod.main(["--timesteps", "200", "--eval-games", "2", "--envs", "1", "--n-steps", "100",
                        "--max-cycles", "4", "--check-games", "2", "--out", str(out)])
    assert results["timesteps"] >= 200 and results["training_games"] >= 1
    for when in ("before", "after"):
        r = results[when]
        assert r["games"] == 2 and 0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1
    assert (out / "model.zip").stat().st_size > 0
    assert (out / "learning_curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((out / "results.json").read_text())["after"] == results["after"]
    assert "win rate" in capsys.readouterr().out


# --- determinization and offerings -------------------------------------------------------------------

def test_determinize_default_guess_pays_the_offerings_made():
    """R11, R24: a determinized game is consistent with the observation, so a rival whose
    public offering is 20 GP has at least what it costs, and the offerings can be paid."""
    g = scenario(players=3, gods=["zeus", "ares", "poseidon", "athena", "hera"],
                 turn_order=[1, 2, 0], player=[{"gp": 5}, {"gp": 25}, {"gp": 5}],
                 areas={"argos": {"owner": 0}, "naxos": {"owner": 1}, "melos": {"owner": 2}},
                 decision={"offerings": {}})
    g.apply(cyclades.Action("bid", "zeus", "", 20))   # player 1 offers 20 GP to Zeus
    g.apply(cyclades.Action("apollo"))                # player 2 goes to Apollo
    assert g.to_move == 0
    sampled = g.observe(0).determinize(random.Random(0))
    assert sampled.state.gp[1] >= 20
    sampled.apply(cyclades.Action("apollo"))          # the bidding ends: the offerings are paid


@pytest.mark.parametrize("n", [0, -2])
def test_a_vector_env_of_no_environments_is_refused(n):
    from cyclades.env import make_vector_env
    with pytest.raises(ValueError, match="at least one environment"):
        make_vector_env(n)


def test_every_legal_bid_of_a_rich_classic_player_has_a_slot():
    """A random classic game (seeded) where a purse passes 60 GP by cycle 28: the bids it makes
    legal (no cap, R10) have slots for the environments to offer them (PettingZoo's API test met
    one when the space stopped at 60), and the environment's mask holds them."""
    g = cyclades.new_game(players=3, seed=80, ruleset="classic")
    rng = random.Random(80)
    for _ in range(3000):
        legal = g.legal_actions()
        if any(a.kind == "bid" and a.n > 60 for a in legal):
            break
        g.apply(rng.choice(legal))
    else:
        pytest.fail("no bid above 60 GP in this game any more: pick another seed")
    for a in legal:
        assert ACTION_SPACE.decode(ACTION_SPACE.encode(a, g.board), g.board) == a
    mask = legal_mask(g, g.to_move)
    assert mask.sum() == len(legal) and mask[ACTION_SPACE.above_of("bid").offset:].any()


def test_widening_the_bids_moved_no_slot():
    """The bids above 60 GP took slots after every kind's of the time: the first slots are the
    space before, by its fingerprint (of every block's kind, words, areas and amounts), so the
    self-play data made on it stays valid (a policy head trained on it is refused by name, as any
    of another space; a kind declared later goes after them:
    test_a_new_kind_gets_slots_from_its_declaration)."""
    assert ACTION_SPACE.extends == ("4534aec03aa5352a", 21513)
    assert ACTION_SPACE.block_of("bid").offset == 1280 and ACTION_SPACE.block_of("bid").ns == 61
    board = _any_board()
    bid = ACTION_SPACE.above_of("bid")
    assert (bid.low, bid.low + bid.ns - 1) == (61, 250) and bid.offset == ACTION_SPACE.extends[1]
    for god in bid.whats:
        for n in (0, 60, 61, 250):
            a = cyclades.Action("bid", god, "", n)
            assert ACTION_SPACE.decode(ACTION_SPACE.encode(a, board)) == a
    with pytest.raises(ActionSpaceError, match=r"outside 0\.\.250"):
        ACTION_SPACE.encode(cyclades.Action("bid", "zeus", "", 251), board)
