"""The short chaos run (benchmarks/chaos.py): two server processes on a PostgreSQL server of the
test's own (never the shared one: the test stops it), games with people and bots, two kill -9s
and a 10-second database outage; then every game is finished or moving, no acknowledged
decision lost or stored twice, every game's decisions replay, no answer in the 500s but the
503s of the outage, no traceback in the servers' logs; meanwhile no decision sent twice at once
applied twice, no open seat given to two joins, no revoked link's decision accepted. The longer
run and its figures: benchmarks/README.md ("Chaos"). In every run: on demand only, it went on
failing unseen once the server listed actions with their words (the check read every
acknowledged decision as lost: the client sends the words back, the database keeps the action)."""
import json
import subprocess
import sys

import pytest
from repository import ROOT

from cyclades.server.testing import postgres_bin


@pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL's programs (initdb, pg_ctl) are not "
                    "installed: apt-get install postgresql")
def test_kills_and_a_database_outage_lose_nothing_and_freeze_no_game(tmp_path):
    out = tmp_path / "chaos.json"
    run = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "chaos.py"), "--processes", "2",
                            "--games", "6", "--rounds", "1", "--events", "kill,outage,kill", "--gap", "5",
                            "--outage", "10", "--settle", "15", "--json", str(out),
                            "--logs", str(tmp_path / "logs")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = run.communicate(timeout=900)
    except subprocess.TimeoutExpired:
        run.terminate()  # it stops its servers and its database
        output, _ = run.communicate(timeout=120)
    assert out.exists(), output[-6000:]
    f = json.loads(out.read_text())
    assert len(f["kills"]) == 2 and len(f["outages"]) == 1, f
    assert f["outages"][0]["seconds"] == 10
    assert f["lost"] == 0 and f["stored_twice"] == 0, f
    assert f["frozen"] == 0, f["frozen_games"]
    # a table's next game, made during the settling as the run stops, is too young to judge
    assert f["finished"] + f["moving"] + f["new"] == f["games"] >= 6 and f["new"] <= 6, f
    assert not f["replay_errors"], f["replay_errors"]
    assert f["errors_500"] == 0 and f["tracebacks"] == 0, f
    # Each double submission applied once, each join race won once, no revoked link obeyed.
    assert "2" not in f["double_submissions"] and "2" not in f["join_races"], f
    assert f["revoked_token_decisions"].get("accepted", 0) == 0, f
    assert f["answers"].get("503", 0) > 0  # the outage was felt ...
    assert f["acknowledged"] > 10 and f["stored"] > 100  # ... and the games were played through it
    assert run.returncode == 0, output[-3000:]
