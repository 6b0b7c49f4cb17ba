"""`cyclades selfplay`: shards of positions with outcomes, the manifest, determinism, resume, bad input."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from cyclades.agents.encoding import ACTION_SPACE, LAYOUT, layout_fingerprint
from cyclades.cli import main
from cyclades.cli import selfplay as sp

QUICK = ("--agents", "greedy,random", "--max-cycles", "3", "--workers", "1", "--shard-games", "2")


def run(*args):
    return CliRunner().invoke(main, ["selfplay", *map(str, args)])


def arrays(out):
    """Every shard of `out`, in order, as {name: array}."""
    manifest = json.loads((out / "manifest.json").read_text())
    return [dict(np.load(out / s["file"], allow_pickle=False)) for s in manifest["shards"]]


@pytest.fixture(scope="module")
def five(tmp_path_factory):
    out = tmp_path_factory.mktemp("sp") / "run"
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out)
    assert r.exit_code == 0, r.output
    return out


def test_shards_hold_consistent_positions_with_their_outcomes(five):
    manifest = json.loads((five / "manifest.json").read_text())
    assert [s["games"] for s in manifest["shards"]] == [[0, 2], [2, 4], [4, 5]]
    assert manifest["complete"] and manifest["games"] == 5
    assert manifest["observation"] == {"size": LAYOUT.size, "fingerprint": layout_fingerprint(),
                                       "dtype": "float32"}
    assert manifest["action_space"]["size"] == ACTION_SPACE.n
    assert manifest["mode"]["players"] == 3 and manifest["agents"] == ["greedy", "random"]
    assert manifest["explore"] == 0.2 and manifest["seed"] == 3
    explored = 0
    for s, a in zip(manifest["shards"], arrays(five)):
        n = len(a["action"])
        assert n == s["positions"] > 0
        assert a["obs"].shape == (n, LAYOUT.size) and a["obs"].dtype == np.float32
        for name in ("player", "game", "decision", "explored", "outcome", "mask", "heuristic", "searched"):
            assert len(a[name]) == n, name
        # the heuristic's chances: a distribution over the factions, not the outcome
        assert np.allclose(a["heuristic"].sum(1), 1.0, atol=1e-5) and (a["heuristic"] < 1).any()
        mask = sp.unpack_mask(a["mask"])
        assert mask.shape == (n, ACTION_SPACE.n)
        assert mask[np.arange(n), a["action"]].all()  # the slot taken was legal
        assert (a["obs"][:, LAYOUT.segment("players").start + 1] == 1).all()  # "me": the viewer's row
        lo, hi = s["games"]
        assert list(a["games"]) == list(range(lo, hi)) and list(a["seeds"]) == [3 + g for g in range(lo, hi)]
        assert sorted(set(a["game"])) == list(range(lo, hi))
        for k, g in enumerate(a["games"]):
            rows = a["game"] == g
            assert list(a["decision"][rows]) == list(range(rows.sum())) == list(range(a["decisions"][k]))
            assert (a["outcome"][rows] == a["game_outcome"][k]).all()
            assert a["game_outcome"][k].sum() == pytest.approx(1.0)  # not in teams: one win shared out
        explored += int(a["explored"].sum())
        assert a["lineup"].shape == (hi - lo, 3)
    total = manifest["positions"]
    assert 0.1 * total < explored < 0.3 * total


def test_team_play_gives_each_faction_its_team_share(tmp_path):
    out = tmp_path / "teams"
    r = run(*QUICK, "--players", 4, "--teams", "--games", 2, "--out", out)
    assert r.exit_code == 0, r.output
    (a,) = arrays(out)
    for row in a["game_outcome"]:
        assert row[0] == row[2] and row[1] == row[3]  # teams: factions 0, 2 and 1, 3
        assert row[0] + row[1] == pytest.approx(1.0)


def test_the_same_seed_gives_the_same_arrays(five, tmp_path):
    again = tmp_path / "again"
    assert run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", again).exit_code == 0
    for a, b in zip(arrays(five), arrays(again), strict=True):
        assert a.keys() == b.keys()
        for k in a:
            assert a[k].dtype == b[k].dtype and a[k].tobytes() == b[k].tobytes(), k


def test_worker_processes_give_the_same_arrays(five, tmp_path):
    out = tmp_path / "two"
    assert run(*QUICK, "--workers", 2, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out).exit_code == 0
    for a, b in zip(arrays(five), arrays(out), strict=True):
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k


def test_ray_tasks_give_the_same_arrays(five, tmp_path):
    """--ray: the games run as Ray tasks (a local instance of 2 CPUs here), the data unchanged."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'cyclades[ray]'")
    out = tmp_path / "ray"
    r = run(*QUICK, "--ray", "local", "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out)
    assert r.exit_code == 0, r.output
    for a, b in zip(arrays(five), arrays(out), strict=True):
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k


@pytest.mark.parametrize("command", ["selfplay", "tournament"])
def test_a_ray_address_that_is_none_is_refused_in_words(command, tmp_path):
    """--ray with something that is no cluster's address: the command says so and what to give,
    no traceback; self-play writes no shard."""
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'cyclades[ray]'")
    out = tmp_path / command
    args = [*QUICK, "--games", 2] if command == "selfplay" else ["--agents", "greedy,random", "--games", 3]
    r = CliRunner().invoke(main, [command, *map(str, args), "--ray", "not an address", "--out", str(out)])
    assert r.exit_code == 1, r.output
    assert "--ray not an address: no Ray cluster to join there" in r.output
    assert '"local"' in r.output and "Traceback" not in r.output
    if command == "selfplay":
        assert json.loads((out / sp.MANIFEST).read_text())["shards"] == []


def test_a_search_records_its_root_visit_counts(tmp_path):
    """A search agent's decisions carry the root's visits: legal slots, the most visited one the
    action taken; a greedy player's, a random move's and a forced move's carry none."""
    out = tmp_path / "search"
    r = run("--agents", "mcts:iterations=12,greedy", "--max-cycles", "2", "--workers", "1", "--games", 1,
            "--explore", 0.2, "--out", out)
    assert r.exit_code == 0, r.output
    (a,) = arrays(out)
    mask = sp.unpack_mask(a["mask"])
    assert a["searched"].sum() == len(a["visit_slot"]) == len(a["visit_count"]) == len(a["visit_reward"])
    assert ((a["visit_reward"] >= 0) & (a["visit_reward"] <= 1)).all()  # a mean of win chances
    mcts_seats = {k for k, name in enumerate(a["lineup"][0]) if name.startswith("mcts")}
    searched = 0
    offsets = sp.visit_offsets(a)
    assert offsets[-1] == len(a["visit_slot"])
    for i in range(len(a["action"])):
        visits = sp.root_visits(a, i, offsets)
        assert visits == sp.root_visits(a, i)  # the offsets only save the sums
        if a["explored"][i] or int(a["player"][i]) not in mcts_seats:
            assert visits == {}
            continue
        if mask[i].sum() == 1:
            continue
        if visits:
            searched += 1
            assert all(mask[i, slot] for slot in visits) and min(visits.values()) > 0
            assert visits.get(int(a["action"][i])) == max(visits.values())
    assert searched >= 5


def test_resume_after_a_stop_between_shards_gives_the_uninterrupted_data(five, tmp_path, monkeypatch):
    out = tmp_path / "stopped"
    play = sp.play_selfplay_game

    def stop_at_game_3(spec):
        if spec["game"] == 3:
            raise RuntimeError("stopped")
        return play(spec)

    monkeypatch.setattr(sp, "play_selfplay_game", stop_at_game_3)
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out)
    assert r.exit_code == 1 and "stopped" in r.output and "--resume" in r.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert [s["shard"] for s in manifest["shards"]] == [0] and not manifest["complete"]
    first = (out / "shard-00000.npz").stat().st_mtime_ns
    monkeypatch.setattr(sp, "play_selfplay_game", play)
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "1 shard(s) of 3 already written" in r.output
    assert (out / "shard-00000.npz").stat().st_mtime_ns == first  # kept, not played again
    for a, b in zip(arrays(five), arrays(out), strict=True):
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k
    assert json.loads((out / "manifest.json").read_text())["positions"] == \
        json.loads((five / "manifest.json").read_text())["positions"]


def test_a_run_of_the_space_before_the_bids_were_widened_goes_on_and_reads_the_same(five, tmp_path):
    """Runs written before classic bids above 60 GP got slots (at the end of the space, so no slot
    moved) stay data: their masks (fewer bytes) read as this space's with the new slots unset,
    and `--resume` goes on with them, the manifest then naming this space."""
    import shutil

    old_fingerprint, old_size = ACTION_SPACE.extends
    out = tmp_path / "narrow"
    shutil.copytree(five, out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["action_space"] = {"size": old_size, "fingerprint": old_fingerprint}
    manifest["shards"] = manifest["shards"][:2]
    manifest["complete"] = False
    (out / "manifest.json").write_text(json.dumps(manifest))
    (out / "shard-00002.npz").unlink()
    for name in ("shard-00000.npz", "shard-00001.npz"):
        shard = dict(np.load(out / name, allow_pickle=False))
        assert not sp.unpack_mask(shard["mask"])[:, old_size:].any()  # no bid above 60 in these games
        shard["mask"] = shard["mask"][:, :(old_size + 7) // 8]  # as the narrower space packed it
        np.savez_compressed(out / name, **shard)
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "2 shard(s) of 3 already written" in r.output
    assert json.loads((out / "manifest.json").read_text())["action_space"]["size"] == ACTION_SPACE.n
    for name in ("shard-00000.npz", "shard-00001.npz", "shard-00002.npz"):
        a, b = sp.load_shard(five / name), sp.load_shard(out / name)
        assert a["mask"].shape == b["mask"].shape == (len(a["obs"]), ACTION_SPACE.n)
        for k in a:
            assert np.array_equal(a[k], b[k]), (name, k)
    # another space (not the one this widens) is still another run's
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["action_space"] = {"size": old_size, "fingerprint": "feedfacefeedface"}
    (out / "manifest.json").write_text(json.dumps(manifest))
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out, "--resume")
    assert r.exit_code == 2 and "action_space" in r.output


def test_a_damaged_shard_is_named_by_train_and_played_again_by_resume(five, tmp_path):
    """A shard damaged after its run (a disk full, a copy cut short) is not read as data: `train`
    names it and says how to mend it, and `--resume` plays its games again, from their seeds, to
    the same arrays; the shards that are whole are kept."""
    import shutil

    pytest.importorskip("torch")  # `train` needs the train extra (CI installs it)
    out = tmp_path / "damaged"
    shutil.copytree(five, out)
    (out / "shard-00001.npz").write_bytes(b"cut short")
    kept = (out / "shard-00000.npz").stat().st_mtime_ns
    r = CliRunner().invoke(main, ["train", str(out), "--out", str(tmp_path / "w.npz")])
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert f"{out / 'shard-00001.npz'}: not a shard: no NPZ archive" in r.output and "--resume" in r.output
    assert not (tmp_path / "w.npz").exists()
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", out, "--resume")
    assert r.exit_code == 0, r.output
    assert "2 shard(s) of 3 already written" in r.output
    assert (out / "shard-00000.npz").stat().st_mtime_ns == kept
    for a, b in zip(arrays(five), arrays(out), strict=True):
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k


def test_bad_input_is_refused(five, tmp_path):
    r = run(*QUICK, "--agents", "nobody", "--games", 2, "--out", tmp_path / "x")
    assert r.exit_code == 2 and "unknown agent 'nobody'" in r.output
    r = run(*QUICK, "--games", 0, "--out", tmp_path / "x")
    assert r.exit_code == 2 and "--games" in r.output
    for share in (1.5, "nan"):  # (NaN compares false with both bounds: click's own range let it through)
        r = run(*QUICK, "--explore", share, "--out", tmp_path / "x")
        assert r.exit_code == 2 and "--explore" in r.output and not (tmp_path / "x").exists()
    # another run's manifest: refused with what differs, nothing written
    before = (five / "manifest.json").read_text()
    r = run(*QUICK, "--games", 5, "--seed", 4, "--explore", 0.2, "--out", five, "--resume")
    assert r.exit_code == 2 and "another run" in r.output and "seed" in r.output
    r = run(*QUICK, "--games", 5, "--seed", 3, "--explore", 0.2, "--out", five)
    assert r.exit_code == 2 and "already holds a self-play run" in r.output
    assert (five / "manifest.json").read_text() == before
    r = run(*QUICK, "--games", 2, "--out", tmp_path / "empty", "--resume")
    assert r.exit_code == 2 and "no manifest.json" in r.output
    r = run(*QUICK, "--games", 2, "--resume")
    assert r.exit_code == 2 and "--resume needs --out" in r.output


def test_docs_selfplay_md_loads_a_run_as_shown(five, monkeypatch, capsys):
    """docs/selfplay.md's Python block, run in the folder above a run named "sp"."""
    import re

    from repository import ROOT

    (code,) = re.findall(r"^```python\n(.*?)^```$", (ROOT / "docs/selfplay.md").read_text(), re.S | re.M)
    (five.parent / "sp").symlink_to(five)
    monkeypatch.chdir(five.parent)
    exec(compile(code, "docs/selfplay.md", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.count("shard-0000") == 3


def test_search_targets_reads_what_a_search_run_recorded(tmp_path):
    """benchmarks/search_targets.py (what a search's self-play teaches, docs/learned-player.md)
    reads every searched position of a run: as many as the shards hold with two or more root
    candidates, each log loss a finite figure, the base rate saying the mean result; a directory
    that holds no run is refused in words."""
    import re
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "search_targets.py"
    out = tmp_path / "search"
    r = run("--agents", "mcts:iterations=12,greedy", "--max-cycles", "2", "--workers", "1", "--games", 2,
            "--shard-games", 1, "--out", out)
    assert r.exit_code == 0, r.output
    chose = sum(int((a["searched"] >= 2).sum()) for a in arrays(out))
    assert chose >= 5
    p = subprocess.run([sys.executable, str(script), str(out)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert f"{out}: 2 games, {chose} positions where a search chose" in p.stdout
    losses = re.findall(r"log loss, +(.+?): (\d+\.\d+) \((\d+\.\d+)-(\d+\.\d+)\); says (\d\.\d+) where the "
                        r"mover's result is (\d\.\d+)", p.stdout)
    assert [label for label, *_ in losses] == ["the search's root mean", "the heuristic", "the base rate"]
    for _, value, low, high, _, _ in losses:
        assert 0 < float(low) <= float(value) <= float(high)
    assert losses[2][4] == losses[2][5]  # the base rate says the mean result
    shares = re.search(r"greedy's first in (\d+\.\d)% .*most visited in (\d+\.\d)%", p.stdout)
    assert shares and all(0 <= float(s) <= 100 for s in shares.groups())
    by_kind = re.findall(r"^ +(.+?): +(\d+) \( *(\d+\.\d)%\), greedy's first +(\d+\.\d)%, gain ([+-]\d\.\d+)$",
                         p.stdout, re.M)
    assert sum(int(n) for _, n, *_ in by_kind) == chose  # every searched position in one group
    assert all(0 <= float(share) <= 100 for _, _, _, share, _ in by_kind)
    p = subprocess.run([sys.executable, str(script), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert p.returncode != 0 and f"{tmp_path}: no self-play run (no manifest.json)" in p.stderr
