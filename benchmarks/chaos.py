"""The chaos run: server processes killed with kill -9 and the database stopped, while people and
bots play; then every game must be finished or moving, and no acknowledged decision lost or
stored twice.

    python benchmarks/chaos.py                        # the long run: 3 processes, 10 minutes
    python benchmarks/chaos.py --processes 2 --games 6 --rounds 1 --events kill,kill,outage \
        --gap 5 --json out.json                       # the short run of tests/server/test_chaos.py

- A PostgreSQL server of its own (cyclades.server.testing.PrivatePostgres: initdb and pg_ctl in a
  temporary directory, its own port), never a shared one: the outages stop it.
- `--processes` server processes (`cyclades serve`, each with a bot worker) on that database.
- `--games` games at a time: half all-bot (random and greedy bots), half with people (one or
  two seats played by client threads, each through a random live process, each decision a
  random legal action; the other seats bots). A finished game is replaced by a new one.
- The abuse a person's client does meanwhile: a seat opened to the lobby is joined by two
  clients at the same moment through two processes (one must win, the other get 409); one
  decision in seven is sent twice at once through two processes (one must be applied); now and
  then the host gives their seat a new link through one process and the old link's decision is
  sent through another (it must be refused).
- The chaos, after `--calm` seconds: the events of `--events` in turn, `--gap` seconds of play
  after each, round after round for `--seconds` (or `--rounds` rounds): "kill" kills a random
  process (kill -9) and starts it again 1 to 3 s later (as systemd would); "outage" stops the
  database (an immediate shutdown, as a crash) for `--outage` seconds. Then `--settle` seconds
  without chaos.
- At the end, from the database itself: every decision a client was acknowledged (200) is
  stored at its index, once, with its action; every game's decisions replay with the engine;
  and every game is over or moved in the last `--settle` seconds (none frozen); a game created
  during those seconds (a table's next game, as the run stops) is too young to judge: counted
  as new.

Figures: decisions acknowledged and stored, lost, stored twice (two acknowledgements at one
version), games finished, moving, new and frozen, kills, outages, answers by status (503 while the
database is down; a 500 is a bug), the seconds reads took to come back after each outage; the
double submissions and the join races by how many of the two were accepted (both answered),
and the revoked link's decisions refused and accepted.
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import shutil
import signal
import sys
import threading
import time
from functools import partial
from pathlib import Path

import httpx
import sqlalchemy as sa
from arguments import at_least, duration

import cyclades
from cyclades.engine.actions import Action
from cyclades.server.testing import PrivatePostgres, ServerProcess, at_once

NO_LIMITS = ["--game-rate", "none", "--max-open-games", "0", "--join-rate", "none"]


class Cluster:
    """The server processes, each on its own port, restarted after a kill."""

    def __init__(self, url, n, directory, bot_delay):
        self.servers = [ServerProcess(url, bot_delay=bot_delay, log_path=str(Path(directory) / f"s{i}.log"),
                                      args=["--peer-ttl", "2", "--bot-workers", "1", "--bot-seconds", "2",
                                            *NO_LIMITS],
                                      env={"CYCLADES_BOT_SWEEP_SECONDS": "2"}, timeout=120)
                        for i in range(n)]
        self.down = set()      # indexes of the processes killed and not yet back
        self.lock = threading.Lock()

    def start(self):
        for i in range(len(self.servers)):
            self.restart(i)

    def live(self, rng) -> ServerProcess:
        return self.live_pair(rng)[0]

    def live_pair(self, rng) -> list[ServerProcess]:
        """Two different live processes at random (the same one twice if only one is up)."""
        with self.lock:
            up = [s for i, s in enumerate(self.servers) if i not in self.down] or self.servers
        return rng.sample(up, 2) if len(up) > 1 else up * 2

    def kill(self, i):
        with self.lock:
            self.down.add(i)
        self.servers[i].kill()

    def restart(self, i, deadline=300.0):
        """Start it again (as systemd would, trying until it answers)."""
        end = time.monotonic() + deadline
        while True:
            try:
                self.servers[i].start()
                break
            except RuntimeError:
                self.servers[i].kill()
                if time.monotonic() > end:
                    raise
                time.sleep(1)
        with self.lock:
            self.down.discard(i)

    def stop(self):
        for s in self.servers:
            s.stop()


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.statuses = collections.Counter()
        self.acks = collections.defaultdict(list)   # game_id -> [(version, action), ...]
        self.moved = {}                             # game_id -> (version, when it last changed)
        self.finished = set()
        self.created = []
        self.errors = []
        self.doubles = collections.Counter()       # decisions sent twice at once: by how many were accepted
        self.join_races = collections.Counter()    # two joins of one open seat at once: by how many won
        self.revoked = collections.Counter()       # the old token's decision after the host re-invited its seat

    def status(self, code):
        with self.lock:
            self.statuses[str(code)] += 1

    def saw(self, gid, version, over):
        """A client read the game: when its version last changed (None: not since first seen)."""
        with self.lock:
            old = self.moved.get(gid)
            if old is None:
                self.moved[gid] = (version, None)
            elif old[0] != version:
                self.moved[gid] = (version, time.monotonic())
            if over:
                self.finished.add(gid)


def request(stats, cluster, rng, method, path, srv=None, **kw):
    """One request to `srv` (default: a random live process): the answer, or None if it failed
    to connect."""
    srv = srv or cluster.live(rng)
    try:
        with httpx.Client(base_url=srv.url, timeout=15) as c:
            r = c.request(method, path, **kw)
    except httpx.HTTPError:
        stats.status("no answer")
        return None
    stats.status(r.status_code)
    return r


def create_game(stats, cluster, rng, people: bool):
    """A new game: its id, host token and the tokens of its people's seats ({seat: token}). A
    seat opened to the lobby goes to one of two joins sent at once through two processes."""
    bots = ["random", "greedy", "casual"]
    if people:
        seats = ["you"] + [x for x in [rng.choice(["invite", "open", None])] if x] + [rng.choice(bots)]
        seats += [rng.choice(bots) for _ in range(3 - len(seats))]
    else:
        seats = [rng.choice(bots) for _ in range(3)]
    body = {"players": 3, "seats": seats, "max_cycles": 3, "bot_delay": 0.05}
    for _ in range(200):
        r = request(stats, cluster, rng, "POST", "/api/games", json=body)
        if r is not None and r.status_code == 201:
            c = r.json()
            with stats.lock:
                stats.created.append(c["game_id"])
            tokens = {s["seat"]: s["token"] for s in c["seats"] if s["token"]}
            for s in c["seats"]:
                if s["open"]:
                    tokens[s["seat"]] = join_race(stats, cluster, rng, c["game_id"], s["seat"], c["host_token"])
            return c["game_id"], c["host_token"], {k: t for k, t in tokens.items() if t}
        time.sleep(0.5)
    raise RuntimeError("no game could be created for 100 s")


def join_race(stats, cluster, rng, gid, seat, host):
    """Two people join the open seat at the same moment through two processes: the winner's
    token (None if the seat was taken by an answer lost with its process: then a bot gets it)."""
    for _ in range(200):
        a, b = cluster.live_pair(rng)
        answers = at_once(*[partial(request, stats, cluster, rng, "POST", f"/api/games/{gid}/join",
                                    srv=srv, json={"seat": seat}) for srv in (a, b)])
        won = [r.json()["token"] for r in answers if r is not None and r.status_code == 200]
        if all(r is not None and r.status_code in (200, 409) for r in answers):
            with stats.lock:
                stats.join_races[len(won)] += 1  # both answered: one winner, the other 409
        if won:
            return won[0]
        if any(r is not None and r.status_code == 409 for r in answers):  # taken, no one told
            request(stats, cluster, rng, "POST", f"/api/games/{gid}/seats/{seat}",
                    json={"host_token": host, "kind": "random"})
            return None
        time.sleep(0.3)
    raise RuntimeError("an open seat could not be joined for 60 s")


def person(stats, cluster, gid, token, host, seed, stop):
    """A person at a seat: reads the game, plays a random legal action when it is theirs. Now
    and then the decision is sent twice at once through two processes (a double click, a
    retry); the host (seat 0) now and then gives their own seat a new link through one process
    and their old link tries the decision through another, then plays on with the new one."""
    rng = random.Random(seed)
    while not stop.is_set():
        r = request(stats, cluster, rng, "GET", f"/api/games/{gid}", params={"token": token})
        if r is None or r.status_code != 200:
            time.sleep(0.3)
            continue
        st = r.json()
        stats.saw(gid, st["version"], st["status"] == "over")
        if st["status"] == "over":
            return
        if not st["legal_actions"]:
            time.sleep(0.1)
            continue
        action = rng.choice(st["legal_actions"])
        body = {"token": token, "version": st["version"], "action": action}
        if host and rng.random() < 0.1:
            r = request(stats, cluster, rng, "POST", f"/api/games/{gid}/seats/0",
                        json={"host_token": host, "kind": "invite"})
            if r is not None and r.status_code == 200:
                token = r.json()["token"]
                r = request(stats, cluster, rng, "POST", f"/api/games/{gid}/actions", json=body)
                if r is not None and r.status_code not in (503, 409):
                    with stats.lock:
                        stats.revoked["accepted" if r.status_code == 200 else "refused"] += 1
                answers = [r]
            else:
                answers = []
        elif rng.random() < 0.15:
            answers = at_once(*[partial(request, stats, cluster, rng, "POST", f"/api/games/{gid}/actions",
                                        srv=srv, json=body) for srv in cluster.live_pair(rng)])
            if all(r is not None and r.status_code != 503 for r in answers):
                with stats.lock:
                    stats.doubles[sum(r.status_code == 200 for r in answers)] += 1
        else:
            answers = [request(stats, cluster, rng, "POST", f"/api/games/{gid}/actions", json=body)]
        for r in answers:
            if r is not None and r.status_code == 200:
                with stats.lock:
                    stats.acks[gid].append((st["version"], action))
        if any(r is None or r.status_code == 503 for r in answers):
            time.sleep(0.3)  # the database (or the process) is down: read again and decide again


def table(stats, cluster, seed, stop, people):
    """One table at a time, replaced by a new game when it is over, until stopped."""
    rng = random.Random(seed)
    while not stop.is_set():
        gid, host, tokens = create_game(stats, cluster, rng, people)
        threads = [threading.Thread(target=person, args=(stats, cluster, gid, t, host if seat == 0 else None,
                                                         rng.random(), stop), daemon=True)
                   for seat, t in tokens.items()]
        for t in threads:
            t.start()
        while not stop.is_set():
            r = request(stats, cluster, rng, "GET", f"/api/games/{gid}")
            if r is not None and r.status_code == 200:
                st = r.json()
                stats.saw(gid, st["version"], st["status"] == "over")
                if st["status"] == "over":
                    break
            time.sleep(0.5)
        for t in threads:
            t.join()


def chaos(cluster, pg, args, rng, log, stop_at):
    """The events of `--events` in turn (`--gap` seconds of play after each), again and again
    until `stop_at` (monotonic) or `--rounds` rounds: "kill" kills a random process (kill -9)
    and starts it again 1 to 3 s later; "outage" stops the database for `--outage` seconds."""
    start = time.monotonic()
    time.sleep(args.calm)
    events = [e.strip() for e in args.events.split(",") if e.strip()]
    rounds = 0
    while time.monotonic() < stop_at and (not args.rounds or rounds < args.rounds):
        for event in events:
            now = time.monotonic()
            if now >= stop_at:
                return
            if event == "outage":
                log["outages"].append({"at": round(now - start, 1), "seconds": args.outage})
                pg.stop("immediate")
                time.sleep(args.outage)
                pg.start()
                back = time.monotonic()
                while not _answers(cluster, rng):  # reads come back by themselves
                    time.sleep(0.1)
                log["outages"][-1]["reads_back_after"] = round(time.monotonic() - back, 2)
            elif event == "kill":
                i = rng.randrange(len(cluster.servers))
                log["kills"].append({"at": round(now - start, 1), "process": i})
                cluster.kill(i)
                time.sleep(rng.uniform(1, 3))
                back = time.monotonic()
                cluster.restart(i)
                log["kills"][-1]["start_seconds"] = round(time.monotonic() - back, 1)
            else:
                raise ValueError(f"unknown chaos event {event!r}: kill or outage")
            time.sleep(args.gap)
        rounds += 1


def _answers(cluster, rng) -> bool:
    try:
        with httpx.Client(base_url=cluster.live(rng).url, timeout=5) as c:
            return c.get("/api/games", params={"limit": 1}).status_code == 200
    except httpx.HTTPError:
        return False


def check(url, stats, settle_from, settled_at) -> dict:
    """What the database holds against what the clients were told. `settle_from`: when the
    settling began (monotonic, as the clients' sightings); `settled_at`: the same by the clock
    the database's times are in."""
    engine = sa.create_engine(url)
    out = {"games": 0, "finished": 0, "moving": 0, "new": 0, "frozen": [], "lost": 0, "stored_twice": 0,
           "acknowledged": 0, "stored": 0, "replay_errors": []}
    with engine.connect() as c:
        rows = c.execute(sa.text("select game_id, options, status, version, seats, to_move, driver, "
                                 "created, updated from games")).all()
        for gid, options, status, version, seats, to_move, driver, created, updated in rows:
            acts = [json.loads(a) for (a,) in c.execute(
                sa.text("select action from decisions where game_id = :g order by idx"), {"g": gid})]
            out["games"] += 1
            out["stored"] += len(acts)
            rec = {"format": 1, "options": json.loads(options), "actions": acts}
            try:
                g = cyclades.Game.from_record(rec)
                start = cyclades.Game.from_record(rec, upto=0).state.version
            except Exception as e:  # a stored decision the engine refuses: a bug
                out["replay_errors"].append(f"{gid}: {type(e).__name__}: {e}")
                continue
            if g.state.version != version:
                out["replay_errors"].append(f"{gid}: stored version {version}, replayed {g.state.version}")
            acked = stats.acks.get(gid, [])
            out["acknowledged"] += len(acked)
            versions = collections.Counter(v for v, _ in acked)
            out["stored_twice"] += sum(n - 1 for n in versions.values() if n > 1)
            for v, action in acked:
                i = v - start
                # the action as the engine reads it: the client sent it back with its listed words
                if not (0 <= i < len(acts)) or Action.from_json(acts[i]) != Action.from_json(action):
                    out["lost"] += 1
            if g.is_over:
                out["finished"] += 1
            else:
                moved = stats.moved.get(gid)
                if moved is not None and moved[1] is not None and moved[1] >= settle_from:
                    out["moving"] += 1
                elif created >= settled_at:  # made during the settling: too young to be frozen
                    out["new"] += 1
                else:
                    kinds = [x["kind"] for x in json.loads(seats)]
                    out["frozen"].append({"game_id": gid, "status": status, "version": version,
                                          "to_move": to_move, "seats": kinds, "driver": driver,
                                          "idle_seconds": round(time.time() - updated, 1),
                                          "seen": stats.moved.get(gid)})
    engine.dispose()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=duration(), default=600,
                    help="seconds of chaos at most (then --settle seconds without)")
    ap.add_argument("--rounds", type=at_least(0), default=0, help="rounds of --events at most (0: no limit)")
    ap.add_argument("--events", default="kill,kill,kill,kill,outage",
                    help="one round of chaos: kill (a process, kill -9) and outage (the database)")
    ap.add_argument("--gap", type=duration(zero=True), default=15, help="seconds of play after each event")
    ap.add_argument("--processes", type=at_least(1), default=3)
    ap.add_argument("--games", type=at_least(1), default=8, help="tables at a time (half with people)")
    ap.add_argument("--calm", type=duration(zero=True), default=5, help="seconds of play before the chaos")
    ap.add_argument("--outage", type=duration(), default=10, help="seconds the database is down each time")
    ap.add_argument("--settle", type=duration(zero=True), default=25, help="seconds without chaos at the end")
    ap.add_argument("--bot-delay", type=duration(zero=True), default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fsync", action="store_true", help="the database syncs its writes (slower)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--logs", help="copy the server processes' logs into this directory")
    args = ap.parse_args(argv)
    # Stopped (SIGTERM): still stop the servers and the database (the `finally`s below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(2))
    rng = random.Random(args.seed)
    stats = Stats()
    log = {"kills": [], "outages": []}
    t0 = time.monotonic()
    with PrivatePostgres(fsync=args.fsync) as pg:
        cluster = Cluster(pg.url, args.processes, pg.dir, args.bot_delay)
        cluster.start()
        stop = threading.Event()
        tables = [threading.Thread(target=table, args=(stats, cluster, rng.random(), stop, i % 2 == 0),
                                   daemon=True) for i in range(args.games)]
        try:
            for t in tables:
                t.start()
            chaos(cluster, pg, args, rng, log, time.monotonic() + args.seconds)
            settle_from, settled_at = time.monotonic(), time.time()
            time.sleep(args.settle)
            stop.set()
            for t in tables:
                t.join(30)
        finally:
            stop.set()
            cluster.stop()
            logs = "".join(Path(s.log_path).read_text(errors="replace") for s in cluster.servers)
            if args.logs:
                Path(args.logs).mkdir(parents=True, exist_ok=True)
                for s in cluster.servers:
                    shutil.copy(s.log_path, args.logs)
        result = check(pg.url, stats, settle_from, settled_at)  # the database as the processes left it
    figures = {
        "seconds": round(time.monotonic() - t0, 1), "processes": args.processes, "tables": args.games,
        "kills": log["kills"], "outages": log["outages"],
        "answers": dict(sorted(stats.statuses.items())),
        "errors_500": sum(n for k, n in stats.statuses.items() if k.startswith("5") and k != "503"),
        "tracebacks": logs.count("Traceback"),
        "double_submissions": dict(sorted(stats.doubles.items())),
        "join_races": dict(sorted(stats.join_races.items())),
        "revoked_token_decisions": dict(sorted(stats.revoked.items())),
        **result, "frozen": len(result["frozen"]), "frozen_games": result["frozen"],
    }
    print(json.dumps(figures, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    ok = (not figures["lost"] and not figures["stored_twice"] and not figures["frozen"]
          and not result["replay_errors"] and not figures["errors_500"] and not figures["tracebacks"]
          and not stats.revoked["accepted"] and not stats.join_races[2] and not stats.doubles[2])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
