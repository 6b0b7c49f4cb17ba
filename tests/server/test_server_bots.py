"""Bots never starve people (server/bots.py): bot decisions run in worker processes,
people's games first, the games in turn, a budget per decision, a killed worker replaced, a clean
shutdown. The real app with its lifespan on a real SQLite file, in this process (Starlette's
TestClient), so that the pool's record of dispatches can be looked at; and one real server in a
subprocess for its worker processes. Fairness is checked on the order of the dispatches, never
on wall-clock times."""
import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

import cyclades
from cyclades.agents import make_agent
from cyclades.agents.match import decide
from cyclades.server import bots
from cyclades.server.app import create_app
from cyclades.server.testing import ServerProcess


def wait_for(what, seconds=60.0, message="timed out"):
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, message
        time.sleep(0.02)


def running(pid) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.fixture
def app_client(tmp_path):
    made = []

    def make(**kw):
        app = create_app(f"sqlite:///{tmp_path / f'games{len(made)}.db'}", bot_delay=0.0, **kw)
        c = TestClient(app).__enter__()
        c.manager = app.state.manager
        made.append(c)
        return c
    yield make
    for c in made:
        c.__exit__(None, None, None)


def create(c, seats, seed=1, **kw):
    r = c.post("/api/games", json={"players": len(seats), "seats": seats, "seed": seed, **kw})
    assert r.status_code == 201, r.text
    return r.json()


def version(c, gid):
    return c.get(f"/api/games/{gid}").json()["version"]


def stored(c, gid):
    """The decisions stored for a game, in order."""
    return c.manager.store.load(gid)["actions"]


class Broken:  # any picklable agent travels to a worker; this one cannot decide
    pass


# --- where and how a decision is made -----------------------------------------------------------

def test_bot_decisions_run_in_other_processes_and_play_as_in_the_server_process(app_client):
    remote = app_client(bot_workers=2)
    local = app_client(bot_workers=0)  # the server's own threads, no worker processes
    seats = ["greedy", "random", "mcts"]
    a = create(remote, seats, seed=7)["game_id"]
    b = create(local, seats, seed=7)["game_id"]
    wait_for(lambda: version(remote, a) >= 30 and version(local, b) >= 30, 120)
    pool = remote.manager.bots
    pids = {h[4] for h in pool.history}
    assert pids and os.getpid() not in pids and None not in pids
    assert pids <= {w.pid for w in pool.workers}
    assert pool.stats["decisions"] >= 30       # the decisions were made there
    assert not local.manager.bots.history      # and, with bot_workers=0, none here
    # The same seed, the same decisions: a bot plays the same in a worker (its generator and
    # its kept search travel with it) as in the server process.
    assert stored(remote, a)[:30] == stored(local, b)[:30]


def test_an_mcts_decision_over_its_budget_plays_the_best_found_so_far():
    game = cyclades.new_game(players=3, seed=3)
    while len([a for a in game.legal_actions() if a.kind != "cancel"]) < 2:
        game.apply(game.legal_actions()[0])
    p = game.to_move

    async def run():
        pool = bots.BotPool(workers=1, seconds=0.3)
        try:
            slow = make_agent("mcts", seed=5, iterations=10**7)
            t = time.monotonic()
            action, after, info = await pool.decide("g", pool.encode(game, slow, p), people=True)
            took = time.monotonic() - t
            fast = make_agent("mcts", seed=5, iterations=3)  # far inside the cap, even on a loaded machine
            action2, _, info2 = await pool.decide("g", pool.encode(game, fast, p), people=True)
            return action, after, info, took, action2, info2, dict(pool.stats)
        finally:
            await pool.close()
    action, after, info, took, action2, info2, stats = asyncio.run(run())
    assert cyclades.Action.from_json(action) in game.legal_actions()
    assert info["capped"] and 0 < after.last_iterations < 10**7
    assert after.seconds is None and after.iterations == 10**7  # the agent's own budget is kept
    assert took < 30  # generous: the cap is 0.3 s, the worker's start included
    assert not info2["capped"] and stats["capped"] == 1 and stats["decisions"] == 2
    # Within the budget a decision is the agent's own: the same as in this process.
    assert cyclades.Action.from_json(action2) == decide(make_agent("mcts", seed=5, iterations=3),
                                                        game.copy(), p)[0]


def test_a_failing_agent_is_reported_and_the_pool_goes_on():
    game = cyclades.new_game(players=3, seed=3)

    async def run():
        pool = bots.BotPool(workers=1, seconds=1)
        try:
            with pytest.raises(bots.BotFailure):
                await pool.decide("g", pool.encode(game, Broken(), game.to_move), people=False)
            action, _, _ = await pool.decide("g", pool.encode(game, make_agent("random", seed=1),
                                                              game.to_move), people=False)
            return action
        finally:
            await pool.close()
    assert cyclades.Action.from_json(asyncio.run(run())) in game.legal_actions()


# --- fairness -------------------------------------------------------------------------------------

def test_people_first_and_the_all_bot_games_in_turn(app_client):
    c = app_client(bot_workers=1)
    pool = c.manager.bots
    pool.starve_after = 1e9
    background = [create(c, ["mcts"] * 3, seed=s)["game_id"] for s in (11, 12, 13)]
    wait_for(lambda: len(pool.history) >= 4)
    made = create(c, ["greedy", "you", "greedy"], seed=14)
    person, tok = made["game_id"], made["seats"][0]["token"]

    def enough():  # the person plays at once whenever it is their turn
        st = c.get(f"/api/games/{person}", params={"token": tok}).json()
        if st["legal_actions"]:
            c.post(f"/api/games/{person}/actions",
                   json={"token": tok, "version": st["version"], "action": st["legal_actions"][0]})
        return (sum(1 for h in pool.history if h[0] == person) >= 4
                and min(sum(1 for h in pool.history if h[0] == g) for g in background) >= 3)
    wait_for(enough, 120)
    hist = list(pool.history)
    assert {h[0] for h in hist} <= set(background) | {person}
    # The person's game: no all-bot game got a worker while one of its bots waited (each
    # waited at most for the one decision already running).
    for gid, people, enq, disp, _pid in hist:
        if people:
            assert gid == person
            jumped = [h for h in hist if not h[1] and enq < h[3] < disp]
            assert not jumped, f"{len(jumped)} all-bot decisions went before a person's bot"
    # The all-bot games take turns: between two decisions of one game, every other game that
    # was waiting already got its decision.
    allbot = [h for h in hist if not h[1]]
    for i, (gid, _, _, d1, _) in enumerate(allbot):
        nxt = next((h for h in allbot[i + 1:] if h[0] == gid), None)
        if nxt is None:
            continue
        d2 = nxt[3]
        for other in allbot:
            if other[0] != gid and other[2] < d1 < other[3]:
                assert other[3] < d2, "a game got two decisions while another waited"
    counts = [sum(1 for h in allbot if h[0] == g) for g in background]
    assert max(counts) - min(counts) <= 2, counts


def test_one_pending_decision_per_game():
    game = cyclades.new_game(players=3, seed=3)

    async def run():
        pool = bots.BotPool(workers=1, seconds=1)
        try:
            payload = pool.encode(game, make_agent("random", seed=1), game.to_move)
            first = asyncio.ensure_future(pool.decide("g", payload, people=False))
            await asyncio.sleep(0)
            with pytest.raises(RuntimeError):
                await pool.decide("g", payload, people=False)
            await first
        finally:
            await pool.close()
    asyncio.run(run())


# --- workers die, the server stops ------------------------------------------------------------

def test_a_killed_worker_is_replaced_and_the_game_goes_on(app_client):
    c = app_client(bot_workers=1)
    pool = c.manager.bots
    gid = create(c, ["mcts"] * 3, seed=21)["game_id"]
    wait_for(lambda: pool.workers and pool.workers[0].busy and pool.history)
    first = pool.workers[0].pid
    v = version(c, gid)
    os.kill(first, signal.SIGKILL)
    wait_for(lambda: version(c, gid) >= v + 3, 120, "the game stopped")
    assert pool.stats["restarts"] >= 1
    assert pool.workers[0].pid != first and running(pool.workers[0].pid)
    assert not running(first)


def test_the_workers_stop_with_the_app(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.0, bot_workers=2)
    with TestClient(app) as c:
        pool = app.state.manager.bots
        create(c, ["mcts"] * 3, seed=31)
        create(c, ["random"] * 3, seed=32)
        wait_for(lambda: len(pool.history) >= 6)
        pids = [w.pid for w in pool.workers]
        assert len(pids) == 2 and all(running(p) for p in pids)
    assert not any(running(p) for p in pids)  # one busy mid-search: killed, reaped
    assert all(t.done() for t in pool._slots)


def children(pid):
    out = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out |= {int(x) for x in f.read().split()}
        except FileNotFoundError:
            pass
    return out


def test_a_real_server_runs_its_bots_in_child_processes_and_takes_them_along(tmp_path):
    if not os.path.exists(f"/proc/{os.getpid()}/task"):
        pytest.skip("needs /proc")
    srv = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", args=["--bot-workers", "2"]).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as http:
            r = http.post("/api/games", json={"players": 3, "seats": ["mcts", "mcts", "greedy"], "seed": 4})
            gid = r.json()["game_id"]
            wait_for(lambda: http.get(f"/api/games/{gid}").json()["version"] >= 3)
        kids = [p for p in children(srv.proc.pid) if running(p)]
        cmds = [Path(f"/proc/{p}/cmdline").read_bytes().split(b"\0") for p in kids]
        workers = [p for p, cmd in zip(kids, cmds) if b"cyclades.server.bots" in cmd]
        assert len(workers) == 2 and srv.proc.pid not in workers
    finally:
        srv.stop()
    wait_for(lambda: not any(running(p) for p in workers), 30, "a bot worker outlived the server")


def test_a_killed_server_leaves_no_worker_behind(tmp_path):
    if not os.path.exists(f"/proc/{os.getpid()}/task"):
        pytest.skip("needs /proc")
    srv = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}",
                        args=["--bot-workers", "1", "--bot-seconds", "1"]).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as http:
            r = http.post("/api/games", json={"players": 3, "seats": ["mcts"] * 3, "seed": 5})
            gid = r.json()["game_id"]
            wait_for(lambda: http.get(f"/api/games/{gid}").json()["version"] >= 2)
        workers = [p for p in children(srv.proc.pid) if running(p)]
        assert workers
    finally:
        srv.kill()  # kill -9: no shutdown code runs; the workers see their input close
    wait_for(lambda: not any(running(p) for p in workers), 30, "a bot worker outlived the server")


# --- the tutorial's scripted bots ------------------------------------------------------------------

def test_lesson_bots_stay_in_the_server_process(app_client):
    from cyclades.server.tutorial import LessonBot
    assert not bots.remote(LessonBot({}))
    assert bots.remote(make_agent("mcts")) and bots.remote(make_agent("random"))
    c = app_client(bot_workers=1)
    r = c.post("/api/tutorial", json={})
    assert r.status_code == 201, r.text
    gid, tok = r.json()["game_id"], r.json()["token"]
    lesson = c.get(f"/api/tutorial/games/{gid}", params={"token": tok}).json()["tutorial"]
    # Follow the lesson's steps; the other seats answer in between (in this process).
    for step in lesson["steps"]:
        def mine():
            st = c.get(f"/api/games/{gid}", params={"token": tok}).json()
            return st if st["legal_actions"] or st["status"] == "over" else None
        wait_for(mine, 30)
        st = mine()
        if st["status"] == "over":
            break
        want = step["expect"]
        a = next(x for x in st["legal_actions"]
                 if all(x.get(k) == v for k, v in want.items() if k in ("kind", "what", "where", "n")))
        r = c.post(f"/api/games/{gid}/actions", json={"token": tok, "version": st["version"], "action": a})
        assert r.status_code == 200, r.text
    progress = c.get(f"/api/tutorial/games/{gid}", params={"token": tok}).json()["tutorial"]
    assert progress["complete"], progress
    assert not any(h[0] == gid for h in c.manager.bots.history)
