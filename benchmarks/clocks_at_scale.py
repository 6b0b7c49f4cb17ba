"""The cost of clocks at scale: 1,000 accounts and 300 turn-based games on PostgreSQL.

    python3 benchmarks/clocks_at_scale.py [--pg URL] [--accounts 1000] [--games 300] [--workers 2]

On PostgreSQL from --pg or $CYCLADES_TEST_PG (a database made for the run and dropped after):
--accounts accounts, each asking for e-mails and Web Push, and --games turn-based games of 2
to 4 of them (stored as the server stores them: clocks in the games' rows, seats held by the
accounts). It prints:

- the time one sweep of due clocks takes (store.claim_due, the query every server process runs
  every few seconds) when nothing is due, the usual case, and when a batch of 100 is due;
- then it starts --workers server processes on the database, with an SMTP server and a push
  endpoint of its own, moves the servers' time on by four days and a minute (every game's clock
  runs out) and measures how long until every timeout was decided (by a casual bot) and every
  notification it caused (the next player's turn, by e-mail and by push) was received: the
  timeouts and the notifications per second, and that each timeout fired once.
"""
import argparse
import contextlib
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))   # notifications.py
sys.path.insert(0, str(Path(__file__).resolve().parent))                 # multi_bench.py
from arguments import at_least, duration
from multi_bench import pg_database
from notifications import PushEndpoint, ServerTime, SmtpSink

from cyclades.engine.game import Game
from cyclades.server import clocks, notify  # notify: its tables, made by create_tables
from cyclades.server.people_schema import accounts, create_tables, seat_holders
from cyclades.server.seats import seat_factions
from cyclades.server.store import Store, decisions, games
from cyclades.server.testing import ServerProcess


def populate(url, n_accounts, n_games, push, at):
    store = Store(url)
    create_tables(store.engine)
    rng = random.Random(1)
    with store.engine.begin() as c:
        c.execute(accounts.insert(), [
            {"name": f"player{i}", "name_key": f"player{i}", "password": "x", "created": at,
             "settings": json.dumps({"notifications": {"email": f"player{i}@bench.test", "by_email": True,
                                                       "digest": False, "by_push": True}})}
            for i in range(n_accounts)])
        ids = [r[0] for r in c.execute(sa.select(accounts.c.id))]
        c.execute(notify.push_subscriptions.insert(), [
            {"endpoint": f"{push.url}/{i}", "account_id": i, "p256dh": push.keys["p256dh"],
             "auth": push.keys["auth"], "created": at} for i in ids])
    speed = clocks.SPEEDS["turn-based"]
    for g in range(n_games):
        players = rng.choice([2, 3, 4])
        game = Game.new(players=players, seed=g)
        held = rng.sample(ids, players)
        seats = [{"kind": "human", "name": f"player{a}", "access": "invite", "token": secrets.token_urlsafe(24),
                  "joined": True} for a in held]
        factions = seat_factions(players, game.teams)
        waiting = next(i for i, fs in enumerate(factions) if game.to_move in fs)
        c0 = clocks.start(speed, players, waiting, at)
        gid = f"bench{g}"
        store.create_game(gid, game.options, seats, "playing", game.state.version, game.to_move,
                          {"speed": "turn-based", "bot": "casual"}, None, c0, clocks.deadline(c0))
        with store.engine.begin() as c:
            c.execute(seat_holders.insert(), [{"game_id": gid, "seat": i, "account_id": a, "state": "playing",
                                               "since": at} for i, a in enumerate(held)])
    return store


def time_sweeps(store, at, repeat=30):
    """ms of one claim_due with nothing due (medians of `repeat`), and with 100 due."""
    idle = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        assert store.claim_due(at, 0.0) == []
        idle.append((time.perf_counter() - t0) * 1000)
    later = at + 5 * 86400
    busy = []
    for _ in range(3):   # lease 0: what these claim is claimable again at once (by the servers)
        t0 = time.perf_counter()
        n = len(store.claim_due(later, 0.0 - 5 * 86400, limit=100))
        busy.append(((time.perf_counter() - t0) * 1000, n))
    return statistics.median(idle), busy


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pg", default=os.environ.get("CYCLADES_TEST_PG"))
    ap.add_argument("--accounts", type=at_least(1), default=1000)
    ap.add_argument("--games", type=at_least(1), default=300)
    ap.add_argument("--workers", type=at_least(1), default=2, help="server processes on the database")
    ap.add_argument("--budget", type=duration(), default=600, help="seconds the timeouts may take")
    a = ap.parse_args()
    if not a.pg:
        sys.exit("PostgreSQL: give --pg URL or set CYCLADES_TEST_PG (tools/test-postgres.sh)")
    folder = Path(tempfile.mkdtemp(prefix="cyclades-clocks-"))
    with pg_database(a.pg) as url, SmtpSink() as smtp, PushEndpoint() as push:
        at = time.time()
        t0 = time.perf_counter()
        store = populate(url, a.accounts, a.games, push, at)
        print(f"{a.accounts} accounts, {a.games} turn-based games stored in {time.perf_counter() - t0:.1f} s")
        idle, busy = time_sweeps(store, time.time())
        print(f"one sweep of due clocks: {idle:.2f} ms with none due (median of 30); "
              + ", ".join(f"{ms:.1f} ms claiming {n}" for ms, n in busy))
        clock = ServerTime(folder / "clock")
        args = ["--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port), "--smtp-security", "none",
                "--notify-sweep-seconds", "1", "--bot-workers", "1"]
        env = {"CYCLADES_CLOCK_FILE": str(clock.path), "CYCLADES_CLOCK_SWEEP_SECONDS": "1"}
        servers = [ServerProcess(url, bot_delay=0.0, args=args, env=env, timeout=60,
                                 log_path=str(folder / f"server{i}.log")) for i in range(a.workers)]
        with contextlib.ExitStack() as stack:
            for s in servers:
                stack.enter_context(s)
            clock.move(speed_total() + 60)
            t0 = time.perf_counter()
            expected = t_timeouts = None
            while time.perf_counter() - t0 < a.budget:
                with store.engine.connect() as c:
                    done = c.execute(sa.select(sa.func.count()).select_from(decisions)).scalar()
                    unsent = c.execute(sa.select(sa.func.count()).select_from(notify.notifications)
                                       .where(notify.notifications.c.sent.is_(None))).scalar()
                    queued = c.execute(sa.select(sa.func.count()).select_from(notify.notifications)).scalar()
                if done >= a.games and t_timeouts is None:
                    t_timeouts = time.perf_counter() - t0
                # every timeout's messages queued (a moment after its decision) and sent
                if t_timeouts is not None and time.perf_counter() - t0 > t_timeouts + 2 and not unsent:
                    expected = queued
                    break
                time.sleep(0.2)
            elapsed = time.perf_counter() - t0 - 2 * (expected is not None)
        with store.engine.connect() as c:
            made = c.execute(sa.select(sa.func.count()).select_from(decisions)).scalar()
            fired = c.execute(sa.select(games.c.clocks)).scalars().all()
        timeouts = sum(sum(json.loads(x)["timeouts"]) for x in fired)
        received = len(smtp.messages) + len(push.received)
        if expected is None:
            print(f"only {made} of {a.games} timeouts in {a.budget:.0f} s")
            return
        print(f"{a.workers} server processes: {a.games} timeouts decided in {t_timeouts:.1f} s "
              f"({a.games / t_timeouts:.1f}/s); decisions stored {made}, timeouts counted {timeouts} "
              f"(each fired once: {made == timeouts == a.games})")
        print(f"notifications: {expected} queued, all sent by "
              f"{elapsed:.1f} s after the clocks ran out: {received} received ({len(smtp.messages)} e-mails, "
              f"{len(push.received)} Web Push messages), {received / elapsed:.1f} a second")
        store.close()


def speed_total():
    s = clocks.SPEEDS["turn-based"]
    return s.per + s.bank


if __name__ == "__main__":
    main()
