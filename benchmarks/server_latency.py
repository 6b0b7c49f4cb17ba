"""How long the game server takes to answer a decision, and how many concurrent
all-bot games it holds before that time doubles.

    PYTHONPATH=src python3 benchmarks/server_latency.py [--decisions 100] [--bot-delay 0.3]
    python3 benchmarks/server_latency.py --parts multi,memory,restart   # PostgreSQL: --pg URL

Several processes, memory, restart (benchmarks/multi_bench.py, on PostgreSQL from --pg or
$CYCLADES_TEST_PG, in a database made for the run and dropped after): the median and p99 time
to answer a person's decision with 1, 2 and 4 server processes (`cyclades serve --workers N`)
while --people simulated people play (each against two bots, thinking 0.2 to 1 s before each
decision, told of their turn over a WebSocket that may be on another process); the memory of a
server per game held idle; and the time a server takes to answer after a restart with
--restart-games (10,000) games stored, on PostgreSQL and SQLite, against what replaying them
all before answering (as the server did before) would take.

Starts a server on 127.0.0.1 (a free port, a temporary SQLite file), plays a
scripted game in which the script is a human seat choosing random legal actions
over HTTP (told of its turn over the WebSocket) against two bots, and prints the
median and 99th percentile of the time from sending a decision to its answer.
Then it keeps more and more all-bot games running in the background (their bots
wait --bot-delay seconds before each decision, as they do for people) until the
median doubles, and prints how many it held. It also prints whether the
background bots still kept their pace (a saturated server answers the script
quickly but lets the bots fall behind) and stops there too. Bounded by --budget.
"""
import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # multi_bench.py
from arguments import at_least, duration

from cyclades.server.testing import ServerProcess


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


class Script:
    """A human seat played by the script: random legal actions, timed over HTTP."""

    def __init__(self, srv, http, seed):
        self.srv, self.http, self.rng = srv, http, random.Random(seed)
        self.ws = self.cm = None
        self.new_game()

    def new_game(self):
        if self.cm:
            self.cm.__exit__(None, None, None)
        c = self.http.post("/api/games", json={"players": 3, "seats": ["human", "random", "random"],
                                                "bot_delay": 0, "seed": self.rng.randrange(1 << 32)})
        c.raise_for_status()
        c = c.json()
        self.gid, self.token = c["game_id"], c["seats"][0]["token"]
        self.cm = connect(f"{self.srv.ws_url}/ws/games/{self.gid}?token={self.token}")
        self.ws = self.cm.__enter__()
        self.version = -1

    def close(self):
        if self.cm:
            self.cm.__exit__(None, None, None)

    def my_turn(self):
        """The latest state once it is this seat's turn (a new game if this one ended)."""
        while True:
            msg = json.loads(self.ws.recv(60))
            if msg.get("type") != "state":
                raise RuntimeError(f"unexpected message {msg}")
            if msg["status"] == "over":
                self.new_game()
                continue
            if msg["legal_actions"] and msg["version"] > self.version:
                return msg

    def decide(self) -> float:
        st = self.my_turn()
        a = self.rng.choice(st["legal_actions"])
        t = time.perf_counter()
        r = self.http.post(f"/api/games/{self.gid}/actions",
                           json={"token": self.token, "version": st["version"], "action": a})
        dt = time.perf_counter() - t
        if r.status_code != 200:
            raise RuntimeError(f"decision refused: {r.status_code} {r.text}")
        self.version = st["version"]
        return dt

    def measure(self, n, deadline=None):
        out = []
        while len(out) < n and (deadline is None or time.monotonic() < deadline or len(out) < 10):
            out.append(self.decide())
        return out


def live_games(http):
    """{game_id: version} of the games still being played."""
    games = http.get("/api/games", params={"limit": 10000, "status": "playing"}).json()["games"]
    return {g["game_id"]: g["version"] for g in games}


def top_up(http, ids, target, rng):
    """Keep `target` all-bot games going: start new ones for those that ended."""
    ids &= set(live_games(http))
    while len(ids) < target:
        r = http.post("/api/games", json={"players": 3, "seats": ["random"] * 3,
                                          "seed": rng.randrange(1 << 32)})
        r.raise_for_status()
        ids.add(r.json()["game_id"])
    return ids


def bot_decisions(http, ids):
    live = live_games(http)
    return sum(v for g, v in live.items() if g in ids)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=at_least(1), default=100, help="timed decisions per measurement")
    ap.add_argument("--bot-delay", type=duration(zero=True), default=0.3,
                    help="seconds the background games' bots wait before each decision")
    ap.add_argument("--budget", type=duration(), default=240, help="stop after about this many seconds")
    ap.add_argument("--max-games", type=at_least(1), default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--parts", default="single,multi,memory,restart",
                    help="what to measure, comma-separated: single (one SQLite process: latency, "
                         "then concurrent all-bot games), multi (latency with 1, 2 and 4 processes "
                         "on PostgreSQL under simulated people), memory (per idle game), restart "
                         "(with --restart-games stored games)")
    ap.add_argument("--pg", default=os.environ.get("CYCLADES_TEST_PG"),
                    help="a PostgreSQL URL whose server may create databases (default: "
                         "$CYCLADES_TEST_PG; without it the PostgreSQL parts are skipped)")
    ap.add_argument("--processes", default="1,2,4", help="server processes to compare (multi)")
    ap.add_argument("--people", type=at_least(1), default=40, help="simulated people playing at once (multi)")
    ap.add_argument("--seconds", type=duration(), default=20, help="measured seconds per configuration (multi)")
    ap.add_argument("--restart-games", type=at_least(1), default=10_000, help="stored games (restart)")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    if parts - {"single"}:
        import multi_bench
        multi_bench.run(args, parts)
    if "single" not in parts:
        return
    t_start = time.monotonic()
    deadline = t_start + args.budget
    rng = random.Random(args.seed)
    load = os.getloadavg()[0]
    print(f"load average before the run: {load:.2f} on {os.cpu_count()} cores"
          + (" (other work is running: the figures will be noisy)" if load > 1 else ""), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        # One client holds up to --max-games games: the per-client creation limits are off.
        srv = ServerProcess(f"sqlite:///{tmp}/bench.db", bot_delay=args.bot_delay,
                            log_path=f"{tmp}/server.log",
                            args=["--game-rate", "none", "--max-open-games", "0"]).start()
        script = None
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as http:
                script = Script(srv, http, args.seed)
                script.measure(20)  # warm up
                base = script.measure(max(args.decisions, 200))
                med0, p99 = statistics.median(base), percentile(base, 99)
                print(f"scripted game, no other game: {len(base)} decisions, "
                      f"median {med0 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms", flush=True)
                ids, held, level, stop, pace0 = set(), 0, 4, None, None
                while level <= args.max_games:
                    if time.monotonic() > deadline:
                        stop = "budget"
                        break
                    top_up(http, ids, level, rng)
                    time.sleep(2 * args.bot_delay + 1)  # let the new games reach their pace
                    d0, t0 = bot_decisions(http, ids), time.monotonic()
                    xs = script.measure(args.decisions, deadline)
                    med = statistics.median(xs)
                    if med >= 2 * med0:  # confirm: a passing burst of other work is not the server
                        ys = script.measure(args.decisions, deadline)
                        if statistics.median(ys) < med:
                            xs, med = ys, statistics.median(ys)
                    time.sleep(max(0.0, t0 + 4 - time.monotonic()))  # count the bots over 4 s at least
                    rate = (bot_decisions(http, ids) - d0) / (time.monotonic() - t0) / level
                    # A bot's pace when nothing holds it back: one decision per bot delay.
                    pace0 = pace0 or (1 / args.bot_delay if args.bot_delay else rate)
                    print(f"{level:5d} background all-bot games: median {med * 1000:.2f} ms, "
                          f"p99 {percentile(xs, 99) * 1000:.2f} ms; their bots made "
                          f"{rate * level:.0f} decisions/s ({rate / pace0:.0%} of their pace)", flush=True)
                    if med >= 2 * med0:
                        stop = "doubled"
                        break
                    if rate < 0.5 * pace0:
                        stop = "saturated"
                        break
                    held = level
                    level = level * 2 if level < 64 else level * 3 // 2  # finer steps where it counts
                print(f"answer time to a decision: median {med0 * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms")
                if stop == "doubled":
                    print(f"held {held} concurrent all-bot games (bot delay {args.bot_delay} s) "
                          f"before the median answer time doubled (at {level})")
                elif stop == "saturated":
                    print(f"held {held} concurrent all-bot games (bot delay {args.bot_delay} s); at {level} "
                          f"the median answer time had not doubled but the bots fell below half their pace")
                else:
                    print(f"held at least {held} concurrent all-bot games (bot delay {args.bot_delay} s) "
                          f"without the median answer time doubling ({stop or 'max-games'} reached)")
        finally:
            if script:
                script.close()
            srv.stop()


if __name__ == "__main__":
    main()
