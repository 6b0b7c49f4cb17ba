"""Several server processes, memory per game, restart time (`server_latency.py --parts ...`).

Loopback only, bounded in time, everything in databases made for the run and removed after.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import statistics
import tempfile
import time

import httpx
import sqlalchemy as sa

import cyclades
from cyclades.server.testing import ServerProcess

NO_LIMITS = ["--game-rate", "none", "--max-open-games", "0"]


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


@contextlib.contextmanager
def pg_database(base: str):
    name = f"cyclades_bench_{secrets.token_hex(4)}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.exec_driver_sql(f"CREATE DATABASE {name}")
    try:
        yield sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children (the workers), in KB."""
    total = 0
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(x) for x in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def run(args, parts):
    load = os.getloadavg()[0]
    print(f"load average before the run: {load:.2f} on {os.cpu_count()} cores", flush=True)
    if not args.pg:
        print("no PostgreSQL (--pg or CYCLADES_TEST_PG): the multi-process, memory and restart "
              "figures on PostgreSQL are skipped", flush=True)
    if "multi" in parts and args.pg:
        for n in [int(x) for x in args.processes.split(",")]:
            with pg_database(args.pg) as url, tempfile.TemporaryDirectory() as tmp:
                srv = ServerProcess(url, bot_delay=0.0, log_path=f"{tmp}/server.log",
                                    args=NO_LIMITS + (["--workers", str(n)] if n > 1 else [])).start()
                try:
                    xs, errors, _games = asyncio.run(people(srv, args.people, args.seconds, args.seed))
                finally:
                    srv.stop()
                print(f"{n} server process{'es' if n > 1 else ''} on PostgreSQL, {args.people} people "
                      f"playing: {len(xs)} decisions in {args.seconds:g} s, median "
                      f"{statistics.median(xs) * 1000:.2f} ms, p99 {percentile(xs, 99) * 1000:.2f} ms"
                      f"{f', {errors} refused' if errors else ''}", flush=True)
    if "memory" in parts and args.pg:
        with pg_database(args.pg) as url:
            memory(url, 1000)
    if "restart" in parts:
        if args.pg:
            with pg_database(args.pg) as url:
                restart(url, args.restart_games, args.seed, "PostgreSQL")
        with tempfile.TemporaryDirectory() as tmp:
            restart(f"sqlite:///{tmp}/restart.db", args.restart_games, args.seed, "SQLite")


# --- simulated people ------------------------------------------------------------------------

async def people(srv, n, seconds, seed):
    from websockets.asyncio.client import connect
    rng = random.Random(seed)
    times, errors, games = [], [0], [0]
    t0 = time.monotonic()
    warm = t0 + 3
    stop = warm + seconds

    async def person(i):
        r = random.Random(rng.randrange(1 << 30))
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            while time.monotonic() < stop:
                c = (await http.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"],
                                                         "bot_delay": 0, "seed": r.randrange(1 << 32)})).json()
                games[0] += 1
                gid, tok = c["game_id"], c["seats"][0]["token"]
                last = -1
                async with connect(f"{srv.ws_url}/ws/games/{gid}?token={tok}", max_size=1 << 22) as ws:
                    while time.monotonic() < stop:
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, stop - time.monotonic())))
                        except TimeoutError:
                            return
                        if msg.get("type") != "state":
                            continue
                        if msg["status"] == "over":
                            break
                        if not msg["legal_actions"] or msg["version"] <= last:
                            continue
                        await asyncio.sleep(r.uniform(0.2, 1.0))  # a person thinks
                        a = r.choice(msg["legal_actions"])
                        t = time.perf_counter()
                        resp = await http.post(f"/api/games/{gid}/actions",
                                               json={"token": tok, "version": msg["version"], "action": a})
                        dt = time.perf_counter() - t
                        last = msg["version"]
                        if resp.status_code != 200:
                            errors[0] += 1
                        elif warm <= time.monotonic() <= stop:
                            times.append(dt)
    tasks = [asyncio.create_task(person(i)) for i in range(n)]
    await asyncio.wait(tasks, timeout=seconds + 60)
    for t in tasks:
        t.cancel()
    return times, errors[0], games[0]


# --- memory -----------------------------------------------------------------------------------

def memory(url, n):
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(url, bot_delay=0.0, log_path=f"{tmp}/server.log", args=NO_LIMITS).start()
        try:
            with httpx.Client(base_url=srv.url, timeout=30) as http:
                for _ in range(20):  # warm up
                    http.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]})
                time.sleep(1)
                before = rss_kb(srv.proc.pid)
                for _ in range(n):
                    http.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]})
                time.sleep(1)
                after = rss_kb(srv.proc.pid)
        finally:
            srv.stop()
    print(f"memory per idle game (new, 3 players, held in memory): "
          f"{(after - before) / n:.1f} KB ({n} games, server RSS {before / 1024:.0f} -> "
          f"{after / 1024:.0f} MB)", flush=True)


# --- restart ------------------------------------------------------------------------------------

def records(seed, count=48):
    """Distinct games to store many times: (options, actions, game after them, kind)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        kind = "over" if i % 8 == 0 else ("bots" if i == 1 else "people")  # bots: 1 in 48
        g = cyclades.new_game(players=3, seed=rng.randrange(1 << 40), max_cycles=12)
        steps = 10 ** 6 if kind == "over" else rng.randrange(0, 250)
        acts = []
        while not g.is_over and len(acts) < steps:
            a = rng.choice(g.legal_actions())
            g.apply(a)
            acts.append(a.to_json())
        out.append((g.options, acts, g, "over" if g.is_over else kind))
    return out


def populate(url, n, seed):
    """n games: 1 in 8 finished, 1 in 48 played by bots (each waiting 2 s before a decision),
    the rest waiting on people."""
    from cyclades.server.store import Store, games
    recs = records(seed)
    store = Store(url)
    now = time.time()
    grows, drows, kinds = [], [], {}
    rng = random.Random(seed)
    for i in range(n):
        options, acts, g, kind = recs[i % len(recs)]
        gid = f"bench{i:06d}"
        if kind == "bots":
            seats = [{"kind": "random", "name": f"Random bot {k + 1}", "access": None, "token": None,
                      "joined": True} for k in range(3)]
        else:
            seats = [{"kind": "human", "name": f"P{k + 1}", "access": "invite",
                      "token": secrets.token_urlsafe(24), "joined": True} for k in range(3)]
        kinds[gid] = (kind, g.state.version, len(acts))
        t = now - (n - i) * 10
        grows.append({"game_id": gid, "created": t, "options": json.dumps(options), "seats": json.dumps(seats),
                      "settings": json.dumps({"bot_delay": 2.0} if kind == "bots" else {}),
                      "status": "over" if kind == "over" else "playing", "version": g.state.version,
                      "cycle": g.state.cycle, "to_move": g.to_move, "updated": t + rng.random(), "driver": None})
        drows += [(gid, k, json.dumps(a), t) for k, a in enumerate(acts)]
    with store.engine.begin() as c:
        c.execute(games.insert(), grows)
    raw = store.engine.raw_connection()
    try:
        cur = raw.cursor()
        if store.pg:
            with cur.copy("COPY decisions (game_id, idx, action, at) FROM STDIN") as cp:
                for row in drows:
                    cp.write_row(row)
        else:
            cur.executemany("INSERT INTO decisions (game_id, idx, action, at) VALUES (?, ?, ?, ?)", drows)
        raw.commit()
    finally:
        raw.close()
    store.close()
    return kinds, len(drows), recs


def replay_estimate(recs, kinds, sample=60):
    """Seconds the server would take to replay every unfinished game before answering (as it
    did before): a sample of the stored games replayed as Manager.load did, scaled up."""
    from cyclades.server.sessions import Manager, replay
    from cyclades.server.store import Store
    unfinished = [gid for gid, (k, _, _) in kinds.items() if k != "over"]
    by_len = {}
    for options, acts, _g, kind in recs:
        by_len.setdefault(kind, []).append((options, acts))
    pool = [(o, a) for k, xs in by_len.items() if k != "over" for o, a in xs]
    with tempfile.TemporaryDirectory() as tmp:
        # A manager of its own (a session needs one); nothing is stored, no bot is asked.
        manager = Manager(Store(f"sqlite:///{tmp}/replay.db"), bot_workers=0)
        try:
            t = time.perf_counter()
            for o, a in pool[:sample]:
                seats = [{"kind": "human", "name": "x", "token": "t", "joined": True} for _ in range(3)]
                replay(manager, "g", {"format": 1, "options": o, "actions": a},
                       {"seats": seats, "created": 0, "settings": {}})
            per = (time.perf_counter() - t) / min(sample, len(pool))
        finally:
            asyncio.run(manager.stop())
    return per * len(unfinished), per


def restart(url, n, seed, name):
    t = time.monotonic()
    kinds, rows, recs = populate(url, n, seed)
    print(f"restart on {name}: stored {n} games ({rows} decisions) in {time.monotonic() - t:.0f} s",
          flush=True)
    bots = {gid: v for gid, (k, v, _) in kinds.items() if k == "bots"}
    people = [gid for gid, (k, _, _) in kinds.items() if k == "people"]
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(url, bot_delay=1.0, log_path=f"{tmp}/server.log", args=NO_LIMITS)
        t0 = time.monotonic()
        srv.start(timeout=600)
        up = time.monotonic() - t0
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as http:
                lazy = []
                for gid in random.Random(seed).sample(people, 20):
                    t = time.perf_counter()
                    r = http.get(f"/api/games/{gid}")
                    assert r.status_code == 200, r.text
                    lazy.append(time.perf_counter() - t)
                # The bot-driven games resume in the background.
                store = sa.create_engine(url)
                from cyclades.server.store import games
                deadline = time.monotonic() + 300
                while time.monotonic() < deadline:
                    with store.connect() as c:
                        rows = c.execute(sa.select(games.c.game_id, games.c.version)
                                         .where(games.c.game_id.in_(list(bots)))).all()
                    moved = sum(1 for gid, v in rows if v > bots[gid])
                    if moved == len(bots):
                        break
                    time.sleep(0.25)
                resumed = time.monotonic() - t0
                store.dispose()
                # Memory per idle stored game once loaded (its history replayed).
                time.sleep(1)
                before = rss_kb(srv.proc.pid)
                some = people[:1000]
                for gid in some:
                    http.get(f"/api/games/{gid}")
                time.sleep(1)
                after = rss_kb(srv.proc.pid)
        finally:
            srv.stop()
    est, per = replay_estimate(recs, kinds)
    print(f"restart on {name} with {n} stored games: answers after {up:.2f} s (process start "
          f"included); a stored game's first GET (loaded on demand) median "
          f"{statistics.median(lazy) * 1000:.0f} ms; {moved}/{len(bots)} bot-driven games playing "
          f"again {resumed:.1f} s after the start. Replaying every unfinished game before "
          f"answering, as before, would take about {est:.0f} s ({per * 1000:.1f} ms a game)", flush=True)
    print(f"memory per idle stored game loaded on {name} ({statistics.mean(kinds[g][2] for g in some):.0f} "
          f"decisions on average): {(after - before) / len(some):.1f} KB", flush=True)
