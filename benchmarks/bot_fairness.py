"""Do a person's bots wait behind other games' bots?

    PYTHONPATH=src python3 benchmarks/bot_fairness.py [--levels 0,10,50] [--seconds 40]

Starts a server on 127.0.0.1 (a free port, a temporary SQLite file), then a game with a person
(this script: random legal actions over HTTP, told of its turn over the WebSocket, answering at
once) and two `--agent` bots (mcts by default, no bot delay), while N all-bot games of the same
agent run in the background (their bots wait the server's --bot-delay, 0.3 s, before each
decision, as in the lobby's default games). For each N of --levels it prints the median and
99th percentile of the time each of the person's bots took per decision (from the state in which
it is to move to the next state, so the thinking itself is included: N = 0 is the floor), how
many such decisions were seen, and how the background games fared (decisions per second in all,
and the fewest and most decisions one background game made in the window: a fair server keeps
them close). Bounded: --seconds per level, --budget in all; loopback only; stops by itself.

`--server-args "--bot-workers 2"` passes options to `cyclades serve` (an older server without
that option: leave it out).
"""
import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from arguments import duration

from cyclades.server.testing import ServerProcess


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q / 100 * (len(xs) - 1)))]


class Person:
    """The person's game: plays its own seat at once, times its bots' decisions."""

    def __init__(self, srv, http, agent, seed):
        self.srv, self.http, self.agent, self.rng = srv, http, agent, random.Random(seed)
        self.cm = self.ws = None
        self.waits = []          # (time it was seen, seconds) per bot decision
        self.reconnects = 0
        self.new_game()

    def new_game(self):
        self.close()
        r = self.http.post("/api/games", json={"players": 3, "seats": ["you", self.agent, self.agent],
                                               "bot_delay": 0, "seed": self.rng.randrange(1 << 32)})
        r.raise_for_status()
        c = r.json()
        self.gid, self.token = c["game_id"], c["seats"][0]["token"]
        self.connect()

    def connect(self):
        # No keepalive pings: a server whose event loop is starved would miss them and the
        # client would hang up; the waits are what is measured.
        self.cm = connect(f"{self.srv.ws_url}/ws/games/{self.gid}?token={self.token}",
                          ping_interval=None)
        self.ws = self.cm.__enter__()
        self.last = None         # (version, time, a bot is to move) of the latest state

    def close(self):
        if self.cm:
            self.cm.__exit__(None, None, None)
            self.cm = None

    def run(self, until):
        while time.monotonic() < until:
            try:
                msg = json.loads(self.ws.recv(max(0.05, until - time.monotonic())))
            except TimeoutError:
                continue
            except ConnectionClosed:  # the server hung up: again, on the same game
                self.reconnects += 1
                self.close()
                self.connect()
                continue
            now = time.monotonic()
            if msg.get("type") != "state":
                raise RuntimeError(f"unexpected message {msg}")
            v = msg["version"]
            if self.last and v > self.last[0] and self.last[2]:
                # The bots made v - last decisions since that state (states may coalesce).
                n = v - self.last[0]
                self.waits += [(now, (now - self.last[1]) / n)] * n
            if msg["status"] == "over":
                self.new_game()
                continue
            mine = bool(msg["legal_actions"])
            self.last = (v, now, not mine)
            if mine:
                a = self.rng.choice(msg["legal_actions"])
                r = self.http.post(f"/api/games/{self.gid}/actions",
                                   json={"token": self.token, "version": v, "action": a})
                if r.status_code != 200:
                    raise RuntimeError(f"decision refused: {r.status_code} {r.text}")


def background(http):
    """{game_id: version} of the all-bot games being played."""
    games = http.get("/api/games", params={"limit": 10000, "status": "playing"}).json()["games"]
    return {g["game_id"]: g["version"] for g in games}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default="0,10,50", help="background all-bot games, in turn")
    ap.add_argument("--seconds", type=duration(), default=40, help="measured seconds per level")
    ap.add_argument("--warmup", type=duration(zero=True), default=5, help="seconds before each measurement")
    ap.add_argument("--agent", default="mcts", help="the bots' agent, everywhere")
    ap.add_argument("--bot-delay", type=duration(zero=True), default=0.3, help="the background bots' delay")
    ap.add_argument("--budget", type=duration(), default=600, help="stop after about this many seconds")
    ap.add_argument("--server-args", default="", help="more `cyclades serve` options")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    t_end = time.monotonic() + args.budget
    rng = random.Random(args.seed)
    print(f"load average before the run: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"agent {args.agent}; server args {args.server_args or '(none)'}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(f"sqlite:///{tmp}/bench.db", bot_delay=args.bot_delay,
                            log_path=f"{tmp}/server.log",
                            args=["--game-rate", "none", "--max-open-games", "0",
                                  *shlex.split(args.server_args)]).start()
        person = None
        try:
            with httpx.Client(base_url=srv.url, timeout=60) as http:
                person = Person(srv, http, args.agent, args.seed)
                ids = set()
                for n in levels:
                    if time.monotonic() > t_end:
                        print(f"N={n}: skipped (--budget)")
                        continue
                    ids &= set(background(http))
                    while len(ids) < n:
                        r = http.post("/api/games", json={"players": 3, "seats": [args.agent] * 3,
                                                          "seed": rng.randrange(1 << 32)})
                        r.raise_for_status()
                        ids.add(r.json()["game_id"])
                    person.run(time.monotonic() + args.warmup)
                    before = background(http)
                    t0 = time.monotonic()
                    person.waits.clear()
                    person.run(min(t_end, t0 + args.seconds))
                    dt = time.monotonic() - t0
                    after = background(http)
                    made = [after[g] - before[g] for g in ids if g in before and g in after]
                    ws = [w for _, w in person.waits]
                    line = f"N={n:3d} background all-bot games: "
                    if ws:
                        line += (f"the person's bots: {len(ws)} decisions, median {statistics.median(ws):.3f} s, "
                                 f"p99 {percentile(ws, 99):.3f} s, max {max(ws):.3f} s")
                    else:
                        line += "the person's bots made no decision in the window"
                    if person.reconnects:
                        line += f" (the server dropped the person's WebSocket {person.reconnects} times)"
                        person.reconnects = 0
                    if made:
                        line += (f"; background: {sum(made) / dt:.1f} decisions/s, per game "
                                 f"{min(made)}..{max(made)} in {dt:.0f} s")
                    print(line, flush=True)
        finally:
            if person:
                person.close()
            srv.stop()


if __name__ == "__main__":
    main()
