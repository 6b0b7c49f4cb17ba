"""tools/digest.py, the check that a change of the engine's code changes nothing it plays: it
runs, and an explicit-chance game resolved as the seeded generator would digests as the seeded
game does (legal lists, events, results)."""
import sys

from repository import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import digest


def test_the_digest_of_explicit_chance_is_the_seeded_one(capsys):
    modes = ["--mode", "legendary-4", "--mode", "teams-2", "--mode", "classic-3", "--games", "3"]
    assert digest.main(modes) == 0
    seeded = capsys.readouterr().out.splitlines()
    assert digest.main([*modes, "--chance", "explicit"]) == 0
    explicit = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in seeded] == [line.split()[:2] for line in explicit]
    assert len(seeded) == 4 and all(len(line.split()[1]) == 16 for line in seeded)
