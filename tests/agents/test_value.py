"""The value network (agents/value.py): the shipped weights, what it says of positions, the
search that uses it, and weights files it must refuse; `cyclades train` end to end."""
import json
import random
import time
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

from cyclades.agents import evaluation as ev
from cyclades.agents import value as vnet
from cyclades.agents.match import Mode
from cyclades.agents.mcts import MCTSAgent
from cyclades.agents.registry import make_agent
from cyclades.cli import main


def positions(players=3, teams=False, seed=0, count=12):
    """Positions along a random game of a mode (a copy at every few decisions)."""
    mode = Mode(players, teams, "legendary", 3)
    g = mode.new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.is_over and len(out) < count:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        if g.state.version % 7 == 0:
            out.append(g.copy())
    return out


@pytest.fixture(scope="module")
def shipped():
    return vnet.load()


def test_the_shipped_weights_load_and_are_the_recorded_ones(shipped):
    assert shipped.fingerprint == vnet.SHIPPED_FINGERPRINT
    assert vnet.SHIPPED.stat().st_size < 5_000_000  # a few MB at most
    assert shipped.meta["held_out"]["log_loss"] < shipped.meta["held_out"]["heuristic_log_loss"]


def test_the_shipped_network_evaluates_a_position_in_under_a_millisecond(shipped):
    # CPU time (another process's load does not count), the best of several rounds of 100
    # evaluations, encoding the position included.
    g = positions(count=3)[-1]
    shipped.win_chances(g)
    rounds = []
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(100):
            shipped.win_chances(g)
        rounds.append((time.process_time() - t0) / 100)
    assert min(rounds) < 0.001, f"{1000 * min(rounds):.2f} ms a position"


@pytest.mark.parametrize(("players", "teams"), [(3, False), (4, True), (2, True), (5, False)])
def test_win_chances_are_a_distribution_over_the_sides(shipped, players, teams):
    for g in positions(players, teams, seed=players):
        chance = shipped.win_chances(g)
        side = ev.sides(g)
        assert len(chance) == g.state.n and all(0.0 <= c <= 1.0 for c in chance)
        by_side = {side[q]: chance[q] for q in range(g.state.n)}
        assert all(chance[q] == pytest.approx(by_side[side[q]]) for q in range(g.state.n))  # a team's
        assert sum(by_side.values()) == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize(("players", "teams"), [(3, False), (4, True), (6, True)])
def test_the_board_part_and_the_sparse_entries_make_the_observation_vector(shipped, players, teams):
    """The network reads a position as the board's fixed part (cached) plus its sparse
    entries: together exactly the encoder's vector, and so the same chances as from it."""
    enc = shipped.encoder
    for g in positions(players, teams, seed=10 + players):
        p = g.to_move if isinstance(g.to_move, int) and g.to_move >= 0 else 0
        dense = enc.encode(g, p)
        rebuilt = enc.board_vector(g.board)
        for i, value in enc.sparse_position(g.view(p), g.board, g.options, p).items():
            rebuilt[i] += value
        assert np.array_equal(rebuilt, dense)
        prior = ev.win_chances(g)
        rel = [prior[(p + k) % g.state.n] for k in range(g.state.n)]
        assert np.allclose(shipped._chances(shipped._first_layer(g, p), rel),
                           shipped.relative_chances(dense, rel), atol=1e-5)


def test_a_finished_game_is_its_result(shipped):
    mode = Mode(3, False, "legendary", 3)
    g = mode.new_game(seed=4)
    rng = random.Random(4)
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
    assert shipped.win_chances(g) == ev.win_chances(g)


def untrained(tmp_path, policy_bias=None, **changes):
    """A weights file of an untrained network (its last layer zero), with `changes` to its meta;
    with `policy_bias` ({slot: bias}), a policy head whose logits are those biases (0 elsewhere)."""
    hidden, second, factions = 8, 4, 6
    rng = np.random.default_rng(0)
    from cyclades.agents.encoding import ACTION_SPACE, LAYOUT
    arrays = {"w_obs": rng.normal(size=(LAYOUT.size, hidden)).astype(np.float16),
              "w_prior": rng.normal(size=(factions, hidden)).astype(np.float32),
              "b1": np.zeros(hidden, np.float32), "w2": rng.normal(size=(hidden, second)).astype(np.float32),
              "b2": np.zeros(second, np.float32), "w3": np.zeros((second, factions), np.float32),
              "b3": np.zeros(factions, np.float32)}
    if policy_bias is not None:
        arrays["w_policy"] = np.zeros((second, ACTION_SPACE.n), np.float16)
        arrays["b_policy"] = np.zeros(ACTION_SPACE.n, np.float32)
        arrays["b_rank"] = np.zeros(vnet.RANKS, np.float32)
        for slot, bias in policy_bias.items():
            arrays["b_policy"][slot] = bias
    path = tmp_path / ("policy.npz" if policy_bias is not None else "untrained.npz")
    vnet.save(path, arrays, {"hidden": hidden})
    if changes:
        with np.load(path) as z:
            content = {k: z[k] for k in z.files}
        meta = json.loads(str(content.pop("meta")))
        meta.update(changes)
        np.savez(path, meta=np.array(json.dumps(meta)), **content)
    return path


def test_an_untrained_network_is_the_heuristic(tmp_path):
    net = vnet.load(untrained(tmp_path))
    for players, teams in ((3, False), (4, True)):
        for g in positions(players, teams, seed=9):
            assert net.win_chances(g) == pytest.approx(ev.win_chances(g), abs=1e-5)


def test_weights_of_another_observation_layout_are_refused_naming_the_file_and_layout(tmp_path):
    path = untrained(tmp_path, observation={"size": 9000, "fingerprint": "0123456789abcdef"})
    with pytest.raises(vnet.WeightsError) as e:
        vnet.load(path)
    assert str(path) in str(e.value) and "0123456789abcdef" in str(e.value) and "layout" in str(e.value)


def test_a_corrupt_weights_file_is_refused(tmp_path):
    path = untrained(tmp_path)
    with np.load(path) as z:
        content = {k: z[k] for k in z.files}
    content["w2"] = content["w2"] + 1.0  # the arrays no longer hash to the recorded fingerprint
    np.savez(path, **content)
    with pytest.raises(vnet.WeightsError, match="corrupt") as e:
        vnet.load(path)
    assert str(path) in str(e.value)


@pytest.mark.parametrize("content", [b"", b"not a zip file at all", b"PK\x03\x04truncated", b'{"json": 1}'])
def test_a_file_that_is_not_weights_is_refused(tmp_path, content):
    """Said as such (numpy's own word for a file that is no archive is that it holds a pickle)."""
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(vnet.WeightsError) as e:
        vnet.load(path)
    assert str(e.value) == (f"{path.resolve()}: not a weights file: an NPZ archive, as `cyclades train` "
                            f"writes, was expected")
    with pytest.raises(vnet.WeightsError, match="a folder, not a weights file"):
        vnet.load(tmp_path)


def test_a_zip_without_meta_or_with_a_pickle_is_refused(tmp_path):
    path = tmp_path / "nometa.npz"
    np.savez(path, w_obs=np.zeros(3))
    with pytest.raises(vnet.WeightsError, match="meta"):
        vnet.load(path)
    pickled = tmp_path / "pickle.npz"
    np.savez(pickled, meta=np.array([{"format": vnet.FORMAT}], dtype=object))
    with pytest.raises(vnet.WeightsError):
        vnet.load(pickled)
    assert zipfile.is_zipfile(pickled)


def test_an_agent_with_a_missing_weights_file_is_refused_at_once(tmp_path):
    with pytest.raises(ValueError, match="no such weights file"):
        make_agent(f"mcts:value={tmp_path / 'missing.npz'}")
    r = CliRunner().invoke(main, ["tournament", "--agents", f"mcts:value={tmp_path / 'missing.npz'},greedy",
                                  "--games", "1"])
    assert r.exit_code != 0 and "missing.npz" in r.output and "Traceback" not in r.output


def test_the_network_guided_search_is_deterministic_for_a_seed():
    g = positions(count=6)[-1]
    while g.to_move is None or len([a for a in g.legal_actions() if a.kind != "cancel"]) < 2:
        legal = g.legal_actions()
        g.apply(legal[0])
    obs = g.observe(g.to_move)
    picks = set()
    for _ in range(2):
        agent = MCTSAgent(seed=5, iterations=60, value="shipped")
        picks.add((agent.choose(obs), tuple(agent.last_stats)))
    assert len(picks) == 1
    in_process = MCTSAgent(seed=5, iterations=30, value="shipped", workers=2, processes=False)
    in_workers = MCTSAgent(seed=5, iterations=30, value="shipped", workers=2)
    assert in_process.choose(obs) == in_workers.choose(obs)
    assert in_process.last_stats == in_workers.last_stats


def self_play(tmp_path, agents, games, max_cycles, *options):
    """The directory of a small self-play run (one worker), played by `cyclades selfplay`."""
    data = tmp_path / "sp"
    r = CliRunner().invoke(main, ["selfplay", "--agents", agents, "--games", str(games), "--max-cycles",
                                  str(max_cycles), "--workers", "1", *options, "--out", str(data)])
    assert r.exit_code == 0, r.output
    return data


def test_train_makes_weights_the_search_reads(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "greedy,careless", 6, 3, "--shard-games", "3")
    out, report = tmp_path / "v.npz", tmp_path / "report.json"
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(out), "--hidden", "8", "--second", "4",
                                  "--epochs", "2", "--sample", "1", "--held-out-every", "3", "--lr", "0.01",
                                  "--report", str(report)])
    assert r.exit_code == 0, r.output  # (an epoch that teaches nothing leaves the untrained network)
    net = vnet.load(out)
    figures = json.loads(report.read_text())
    assert figures["fingerprint"] == net.fingerprint
    assert figures["train"]["positions"] > 0 and len(figures["calibration"]) == 10
    by_run = [run["held_out"] for run in figures["train"]["runs"]]  # each run's games judged apart
    assert sum(h["positions"] for h in by_run) == figures["train"]["held_out_positions"]
    assert by_run[0]["log_loss"] == pytest.approx(figures["held_out"]["log_loss"], rel=1e-5)  # one run: the whole
    assert 0 < figures["held_out"]["cycle_starts"]["positions"] < figures["train"]["held_out_positions"]
    agent = MCTSAgent(seed=1, iterations=20, value=str(out))
    g = positions(count=2)[-1]
    assert agent.network.win_chances(g)


def test_train_refuses_self_play_without_heuristic_chances(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = tmp_path / "old"
    data.mkdir()
    (data / "manifest.json").write_text(json.dumps({"version": 1, "shards": []}))
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(tmp_path / "v.npz")])
    assert r.exit_code == 2 and "version 1" in r.output and "Traceback" not in r.output


def test_a_pickled_agent_leaves_the_weights_behind_and_reads_them_again():
    import pickle

    agent = MCTSAgent(seed=2, iterations=10, value="shipped")
    data = pickle.dumps(agent)
    assert len(data) < 100_000  # the weights (megabytes) do not travel with the agent
    back = pickle.loads(data)
    assert back.network is not None and back.network.fingerprint == vnet.SHIPPED_FINGERPRINT
    g = positions(count=4)[-1]
    assert back.network.win_chances(g) == agent.network.win_chances(g)


def test_the_training_target_looks_a_cycle_ahead_in_the_same_game():
    from cyclades.cli.train import next_cycle_chances
    cycle = np.array([[1], [1], [2], [3], [3], [1], [1]], dtype=np.float32)  # two games: 0 and 1
    shard = {"obs": cycle, "game": np.array([0, 0, 0, 0, 0, 1, 1]),
             "heuristic": np.arange(14, dtype=np.float32).reshape(7, 2),
             "outcome": np.array([[1, 0]] * 5 + [[0, 1]] * 2, dtype=np.float32)}
    ahead = next_cycle_chances(shard, 0)
    # cycle 1 -> the first position of cycle 2 (row 2), cycle 2 -> row 3, the last cycle -> the outcome
    assert ahead.tolist() == [[4, 5], [4, 5], [6, 7], [1, 0], [1, 0], [0, 1], [0, 1]]


def test_the_first_position_of_each_cycle_is_where_rollout_1_reads_the_network():
    from cyclades.cli.train import cycle_starts

    cycle = np.array([[1], [1], [2], [2], [1], [1], [3]], dtype=np.float32)  # two games
    shard = {"game": np.array([4, 4, 4, 4, 5, 5, 5]), "obs": cycle}
    assert cycle_starts(shard, 0).tolist() == [True, False, True, False, True, False, True]


def test_keep_cycle_starts_trains_on_every_cycle_start_and_holds_out_the_same(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "greedy,careless", 4, 4)
    figures = {}
    for flag in ([], ["--keep-cycle-starts"]):
        report = tmp_path / f"report{len(flag)}.json"
        r = CliRunner().invoke(main, ["train", str(data), "--out", str(tmp_path / "v.npz"), "--hidden", "8",
                                      "--second", "4", "--epochs", "1", "--sample", "0.05", "--held-out-every", "2",
                                      "--report", str(report), *flag])
        assert r.exit_code == 0, r.output
        figures[bool(flag)] = json.loads(report.read_text())["train"]
    # games 1 and 3 are trained on, 4 cycles each: their 8 cycle starts join the 5% sample (which
    # may hold one or two of them already)
    assert figures[True]["positions"] - figures[False]["positions"] >= 6
    assert figures[True]["held_out_positions"] == figures[False]["held_out_positions"]
    assert figures[True]["keep_cycle_starts"] and not figures[False]["keep_cycle_starts"]


def test_keep_cycle_starts_is_a_flag_and_a_value_for_it_is_refused(tmp_path):
    out = tmp_path / "v.npz"
    r = CliRunner().invoke(main, ["train", str(tmp_path), "--out", str(out), "--keep-cycle-starts=maybe"])
    assert r.exit_code == 2 and "does not take a value" in r.output
    assert not out.exists()


# --- the policy head -----------------------------------------------------------------------

def a_decision(seed=0):
    """A position where the player to move has a real choice, and its observation."""
    g = positions(count=6, seed=seed)[-1]
    while g.to_move is None or len([a for a in g.legal_actions() if a.kind != "cancel"]) < 4:
        g.apply(g.legal_actions()[0])
    return g, g.observe(g.to_move)


def test_a_policy_head_softmaxes_its_logits_over_the_actions_asked_about(tmp_path):
    from cyclades.agents.encoding import ACTION_SPACE

    g, _ = a_decision()
    actions = [a for a in g.legal_actions() if a.kind != "cancel"][:3]
    slots = [ACTION_SPACE.encode(a, g.board) for a in actions]
    net = vnet.load(untrained(tmp_path, policy_bias={slots[1]: np.log(2.0)}))
    assert net.has_policy
    assert net.policy(g, actions) == pytest.approx([0.25, 0.5, 0.25])
    assert net.win_chances(g) == pytest.approx(ev.win_chances(g), abs=1e-5)  # the value part unchanged
    plain = vnet.load(untrained(tmp_path))
    assert not plain.has_policy and plain.policy(g, actions) == pytest.approx([1 / 3] * 3)


def test_a_policy_head_of_another_action_space_or_half_of_one_is_refused(tmp_path):
    path = untrained(tmp_path, policy_bias={}, action_space={"size": 100, "fingerprint": "feedfacefeedface"})
    with pytest.raises(vnet.WeightsError) as e:
        vnet.load(path)
    assert str(path) in str(e.value) and "feedfacefeedface" in str(e.value) and "action space" in str(e.value)
    path = untrained(tmp_path, policy_bias={})
    with np.load(path) as z:
        content = {k: z[k] for k in z.files if k != "b_policy"}
    np.savez(path, **content)
    with pytest.raises(vnet.WeightsError, match="policy head") as e:
        vnet.load(path)
    assert str(path) in str(e.value)


def test_the_search_with_a_prior_spends_its_visits_where_the_prior_points(tmp_path):
    from cyclades.agents.encoding import ACTION_SPACE

    g, obs = a_decision(seed=3)
    plain = MCTSAgent(seed=4, iterations=40)
    plain.choose(obs)
    tried = [a for a, _, _ in plain.last_stats]  # greedy's order: the first is greedy's choice
    favourite = tried[-1]
    path = untrained(tmp_path, policy_bias={ACTION_SPACE.encode(favourite, g.board): 8.0})
    agent = MCTSAgent(seed=4, iterations=40, value=str(path), prior=1)
    assert agent.choose(obs) == favourite
    visits = {a: n for a, n, _ in agent.last_stats}
    assert visits[favourite] > 30 and sum(visits.values()) == 40
    # deterministic for a seed, in one process or in two workers
    again = MCTSAgent(seed=4, iterations=40, value=str(path), prior=1)
    assert again.choose(obs) == favourite and again.last_stats == agent.last_stats
    in_process = MCTSAgent(seed=5, iterations=20, value=str(path), prior=1, workers=2, processes=False)
    in_workers = MCTSAgent(seed=5, iterations=20, value=str(path), prior=1, workers=2)
    assert in_process.choose(obs) == in_workers.choose(obs)
    assert in_process.last_stats == in_workers.last_stats


def test_a_prior_without_a_policy_head_is_refused(tmp_path):
    with pytest.raises(ValueError, match="policy head"):
        make_agent("mcts:value=shipped,prior=1")
    r = CliRunner().invoke(main, ["tournament", "--agents", "mcts:value=shipped,prior=1,greedy", "--games", "1"])
    assert r.exit_code == 2 and "policy head" in r.output and "Traceback" not in r.output
    for bad in ("x", "-1", "nan"):
        with pytest.raises(ValueError, match="puct"):
            make_agent(f"mcts:puct={bad}")


def test_train_learns_a_policy_head_from_the_search_s_root_visits(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "mcts:iterations=12,greedy", 4, 2)
    out, report = tmp_path / "p.npz", tmp_path / "report.json"
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(out), "--hidden", "8", "--second", "4",
                                  "--epochs", "3", "--sample", "1", "--held-out-every", "2", "--lr", "0.02",
                                  "--policy-weight", "1", "--report", str(report)])
    assert r.exit_code == 0, r.output
    net = vnet.load(out)
    assert net.has_policy and net.meta["train"]["policy_weight"] == 1
    policy = json.loads(report.read_text())["held_out"]["policy"]
    assert policy["positions"] > 0  # judged on the held-out searched positions, against a uniform guess
    assert policy["cross_entropy"] > 0 and policy["uniform_cross_entropy"] > 0
    assert 0 <= policy["first_is_most_visited"] <= 1
    g, obs = a_decision()
    assert MCTSAgent(seed=1, iterations=10, value=str(out), prior=1).choose(obs) in g.legal_actions()


def test_the_policy_s_reward_target_is_the_softmax_of_the_candidates_mean_rewards():
    torch = pytest.importorskip("torch")  # the train extra (CI installs it)
    from cyclades.cli.train import _Batches

    # two searched positions: three candidates (greedy's first the most visited, the third the best
    # mean), then two
    data = {"visit_indptr": np.array([0, 3, 5]), "visit_slot": np.array([7, 3, 9, 1, 2]),
            "visit_count": np.array([6, 1, 3, 2, 2], np.float32),
            "visit_reward": np.array([0.4, 0.1, 0.5, 0.3, 0.3], np.float32)}
    row, slot, rank, share = _Batches(data, torch, 0.1, "reward").visits(np.array([0, 1]))
    assert row.tolist() == [0, 0, 0, 1, 1] and slot.tolist() == [7, 3, 9, 1, 2] and rank.tolist() == [0, 1, 2, 0, 1]
    first = np.exp(np.array([4.0, 1.0, 5.0]))
    assert share.numpy() == pytest.approx(np.concatenate([first / first.sum(), [0.5, 0.5]]), rel=1e-5)
    _, _, _, visits = _Batches(data, torch, 1.0, "visits").visits(np.array([0, 1]))
    assert visits.numpy() == pytest.approx([0.6, 0.1, 0.3, 0.5, 0.5])  # the default: the visits' shares
    # a deep search's visits, sharpened: 1,000 to the power 100 is no overflow (nor a NaN)
    deep = {**data, "visit_count": np.array([1000, 10, 990, 2, 1], np.float32)}
    _, _, _, sharp = _Batches(deep, torch, 0.01, "visits").visits(np.array([0, 1]))
    assert np.isfinite(sharp.numpy()).all()
    assert sharp.numpy()[[0, 3]] == pytest.approx([1 / (1 + 0.99 ** 100), 1])


def test_train_learns_a_policy_head_from_the_search_s_mean_rewards_and_refuses_runs_without_them(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "mcts:iterations=12,greedy", 4, 2)
    out, report = tmp_path / "p.npz", tmp_path / "report.json"
    args = ["train", str(data), "--out", str(out), "--hidden", "8", "--second", "4", "--epochs", "1",
            "--sample", "1", "--held-out-every", "2", "--policy-weight", "1", "--policy-target", "reward"]
    r = CliRunner().invoke(main, [*args, "--report", str(report)])
    assert r.exit_code == 0, r.output
    assert vnet.load(out).meta["train"]["policy_target"] == "reward"
    policy = json.loads(report.read_text())["held_out"]["policy"]
    assert 0 <= policy["first_is_best_mean"] <= 1 and 0 <= policy["greedy_first_is_best_mean"] <= 1
    assert "has the best mean reward" in r.output
    # a run written before the rewards were recorded (format version 3): refused, nothing written
    out.unlink()
    for shard in data.glob("*.npz"):
        with np.load(shard) as z:
            arrays = {k: z[k] for k in z.files if k != "visit_reward"}
        np.savez_compressed(shard, **arrays)
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1 and "format version 4" in r.output and not out.exists(), r.output
    r = CliRunner().invoke(main, [*args[:-1], "rewards"])
    assert r.exit_code == 2 and "--policy-target" in r.output


@pytest.mark.parametrize("option", ["--search-weight", "--outcome-weight", "--policy-weight"])
@pytest.mark.parametrize("value", ["1000", "-0.1", "half", "nan"])
def test_a_target_weight_that_is_not_a_number_in_its_range_is_refused_before_anything_is_read(tmp_path, option,
                                                                                            value):
    out = tmp_path / "s.npz"  # (NaN compares false with both bounds: click's own range let it through)
    r = CliRunner().invoke(main, ["train", str(tmp_path), "--out", str(out), option, value])
    assert r.exit_code == 2 and option in r.output and "Traceback" not in r.output
    assert not out.exists()


@pytest.mark.parametrize("option, says", [("--policy-weight", "positions a search chose"),
                                          ("--search-weight", "format version 4")])
def test_a_target_from_the_search_without_searched_positions_is_refused(tmp_path, option, says):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "greedy,careless", 2, 2)
    out = tmp_path / "p.npz"
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(out), "--sample", "1", "--held-out-every", "2",
                                  option, "1"])
    assert r.exit_code == 1 and says in r.output and not out.exists()


def test_the_policy_head_s_slot_parts_are_the_slot_s_kind_word_and_number():
    from cyclades.agents.encoding import ACTION_SPACE
    from cyclades.cli.train import slot_parts

    kind, what, n = slot_parts(ACTION_SPACE)
    kinds = list(dict.fromkeys(b.kind for b in ACTION_SPACE.blocks))
    seen: dict = {}
    for slot in [*range(0, ACTION_SPACE.n, 7), *range(ACTION_SPACE.above_of("bid").offset, ACTION_SPACE.n)]:
        action = ACTION_SPACE.decode(slot)
        assert kinds[kind[slot]] == action.kind
        assert n[slot] == (action.n or 0)
        # one index per kind and word, shared by every area and number of that pair
        assert seen.setdefault((action.kind, action.what), what[slot]) == what[slot]
    assert len(set(seen.values())) == len(seen)


# --- the search's estimate as a value target -------------------------------------------------

def test_the_root_mean_is_the_candidates_rewards_weighed_by_their_visits():
    from cyclades.cli.train import root_means

    shard = {"player": np.zeros(3, np.int8), "searched": np.array([2, 0, 1], np.int16),
             "visit_count": np.array([3, 1, 4], np.int32), "visit_reward": np.array([0.5, 0.1, 0.25], np.float32)}
    means = root_means(shard)
    assert means[0] == pytest.approx((3 * 0.5 + 0.1) / 4) and np.isnan(means[1]) and means[2] == pytest.approx(0.25)
    assert np.isnan(root_means({"player": np.zeros(2, np.int8), "searched": np.ones(2, np.int16)})).all()  # version 3


def test_the_search_s_estimate_goes_to_the_mover_s_side_and_the_rest_as_the_target_shared_it():
    from cyclades.cli.train import with_search_estimate

    target = np.array([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])   # mover first; row 2: the mover won
    prior = np.array([[0.4, 0.4, 0.2], [0.5, 0.3, 0.2]])
    own = np.array([[True, False, False]] * 2)
    out = with_search_estimate(target, prior, own, np.array([0.6, 0.7]))
    assert out[0] == pytest.approx([0.6, 0.4 * 5 / 8, 0.4 * 3 / 8])
    assert out[1] == pytest.approx([0.7, 0.3 * 3 / 5, 0.3 * 2 / 5])  # the others' part as the prior shares it
    teams = with_search_estimate(np.array([[0.25, 0.5, 0.25, 0.0]]), np.full((1, 4), 0.25),
                                 np.array([[True, False, True, False]]), np.array([0.8]))
    assert teams[0] == pytest.approx([0.4, 0.2, 0.4, 0.0])  # partners share their side's 0.8 as the target did


def test_train_leans_on_the_search_s_estimate_where_a_search_chose(tmp_path):
    pytest.importorskip("torch")  # the train extra (CI installs it)
    data = self_play(tmp_path, "mcts:iterations=12,greedy", 4, 2)
    out = tmp_path / "s.npz"
    r = CliRunner().invoke(main, ["train", str(data), "--out", str(out), "--hidden", "8", "--second", "4",
                                  "--epochs", "1", "--sample", "1", "--held-out-every", "2", "--search-weight", "0.5"])
    assert r.exit_code == 0, r.output
    assert "with the search's estimate in their target" in r.output
    assert vnet.load(out).meta["train"]["search_weight"] == 0.5
