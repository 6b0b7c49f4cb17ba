"""Bots never starve people: bot decisions in worker processes, scheduled fairly.

Every bot decision of the server's games (`Session._bots` calls `BotRunner.step`) is computed in one
of a few long-lived **worker processes** (`python -m cyclades.server.bots`), never on the
server's event loop nor in its interpreter: a game's bots cannot slow down the answers to
people, and searches run on other cores than the server's.

- **The job**: the game (`Game.to_json`, exact, generator included), the agent itself (pickled,
  with its random generator and, for mcts, the subtree it keeps between a player's steps) and
  the faction to move. The worker runs the one decision step (`agents/match.decide`) and sends
  back the action and the agent as it is after deciding; the session keeps that agent for the
  seat's next decision. So a game's bots play exactly as they did in the server's own threads:
  seeded from the game's seed (`Session.agent`), the same decisions from the same game, on
  whichever worker.
- **Fair scheduling** (`BotPool`): at most one pending decision per game (a game's bots play
  one after the other anyway), in two first-come-first-served queues: games with a person at
  the table (a human seat) first, then all-bot games. A game that was served queues again at the
  back when its next bot is to move, so the games take turns (round robin): one game cannot
  take the workers while another waits, and a person's bots wait at most for the decisions
  already running. An all-bot game waiting longer than `starve_after` seconds (30) goes first,
  so that a server full of people still moves its all-bot games.
- **A budget per decision** (`seconds`, `cyclades serve --bot-seconds`, default 10): an mcts
  bot searches at most that long (its own `seconds` budget is capped, its iterations kept) and
  plays the best action found so far, the root's most visited, when the time is up. Refusing
  the decision and retrying would throw the search away and try again with the same budget; the
  search is anytime, so its best-so-far is the best answer the budget allows. The decisions
  that reached the cap are counted (`stats["capped"]`) and logged. A decision within the
  budget is deterministic as before; a capped one depends on the machine's speed. A worker
  silent for 3 x the budget + 10 s (a hung agent) is killed and the decision fails (logged,
  like any bot failure: it would hang again).
- **Workers die, the pool goes on**: a worker that exits or is killed mid-decision is started
  again and the decision is queued again, at the front (at most 3 tries).
- **Games never freeze**: a decision that failed (its worker died 3 times or hung, or the
  database could not store it) is asked for again by the game's bot task after a growing
  pause (`retry_delay`: 0.5 s, 1 s, 2 s, ... at most `RETRY_MAX`); after `PLAIN_AFTER` failures
  of the agent in a row, the seat's decision is a plain bot's (random among the legal
  actions, seeded, in the server process), so that an agent that always fails or hangs on a
  position cannot stop its game. A sweep in every process (server/sync.py) starts a game's bot
  task again if none runs while a bot is to move.
- `workers` (`cyclades serve --bot-workers N`, `CYCLADES_BOT_WORKERS`; default: the cores but
  one, at least 1; divided among the server processes of `--workers`). 0 runs the bots in the
  server process's threads (no isolation). The workers run at a lower CPU
  priority (nice +5) than the server, so people's requests go first on a busy machine.
- Agents that are no registered bot kind (the tutorial's scripted `LessonBot`, trivial) or
  that cannot be pickled decide in the server process, on the Manager's `cpu` threads, as before.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import pickle
import sys
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..engine.actions import Action
from .errors import SeatsChanged
from .tasks import stop_tasks

if TYPE_CHECKING:
    from ..engine.game import Game

log = logging.getLogger("cyclades.server")

DEFAULT_SECONDS = 10.0     # budget of one bot decision
STARVE_AFTER = 30.0        # an all-bot game waiting longer goes before people's games
MAX_TRIES = 3              # a decision whose worker died is tried again, up to this
RETRY_MAX = 8.0            # longest pause before a failed bot step is tried again
PLAIN_AFTER = 3            # failures of an agent in a row, after which a plain bot decides
NICE = 5                   # the workers' CPU priority below the server's
HISTORY = 10_000           # dispatches remembered for tests and statistics
ENV_WORKERS = "CYCLADES_BOT_WORKERS"
ENV_SECONDS = "CYCLADES_BOT_SECONDS"
ENV_NICE = "CYCLADES_BOT_NICE"    # the workers' niceness instead of NICE


def default_workers(server_processes: int = 1) -> int:
    """The cores but one (the server's), shared among the server processes; at least 1."""
    return max(1, ((os.cpu_count() or 2) - 1) // max(1, server_processes))


def _env_number(name, kind):
    text = os.environ.get(name)
    if text in (None, ""):
        return None
    try:
        return kind(text)
    except ValueError:
        log.warning("%s=%r is not a number: ignored", name, text)
        return None


def retry_delay(failures: int) -> float:
    """The pause before trying a failed bot step again: doubling from 0.5 s, at most RETRY_MAX,
    with a little jitter (processes that failed together do not come back together)."""
    import random
    return min(RETRY_MAX, 0.5 * 2 ** max(0, failures - 1)) * random.uniform(0.8, 1.2)


class BotFailure(RuntimeError):
    """A bot decision that could not be made (the agent failed, or its worker hung)."""


class WorkerDied(Exception):
    pass


class Job:
    __slots__ = ("dispatched", "enqueued", "future", "game_id", "payload", "people", "tries")

    def __init__(self, game_id, people, payload, future):
        self.game_id = game_id
        self.people = people
        self.payload = payload
        self.future = future
        self.enqueued = time.monotonic()
        self.tries = 0
        self.dispatched = None


class Worker:
    """One worker process, spoken to over its stdin/stdout: length-prefixed pickles."""

    def __init__(self):
        self.proc = None
        self.busy = False
        self.started = 0.0
        self.crashes = 0      # deaths in a row soon after starting

    @property
    def pid(self):
        return self.proc.pid if self.proc is not None else None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self):
        import cyclades
        env = dict(os.environ)
        src = str(Path(cyclades.__file__).resolve().parents[1])  # the package this server runs
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cyclades.server.bots", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, env=env)
        self.started = time.monotonic()

    async def call(self, payload: bytes):
        try:
            self.proc.stdin.write(len(payload).to_bytes(4, "big") + payload)
            await self.proc.stdin.drain()
            n = int.from_bytes(await self.proc.stdout.readexactly(4), "big")
            return pickle.loads(await self.proc.stdout.readexactly(n))
        except (asyncio.IncompleteReadError, ConnectionError, BrokenPipeError, OSError) as e:
            raise WorkerDied(f"{type(e).__name__}: {e}") from None

    async def stop(self, grace: float = 2.0):
        """Close its input (it exits), kill it if it does not within `grace` s; reaped."""
        p = self.proc
        if p is None:
            return
        if p.returncode is None:
            try:
                if grace and not self.busy:
                    p.stdin.close()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(p.wait(), grace)
                if p.returncode is None:
                    p.kill()
            except ProcessLookupError:
                pass
        with contextlib.suppress(Exception):  # pragma: no cover
            await p.wait()
        if p.stdin is not None and not p.stdin.is_closing():
            p.stdin.close()


class BotPool:
    """Worker processes and the fair queue of bot decisions (see the module's docstring)."""

    def __init__(self, workers: int | None = None, seconds: float | None = None,
                 starve_after: float = STARVE_AFTER):
        if workers is None:
            workers = _env_number(ENV_WORKERS, int)
        if seconds is None:
            seconds = _env_number(ENV_SECONDS, float)
        self.size = default_workers() if workers is None else max(0, int(workers))
        self.seconds = DEFAULT_SECONDS if seconds is None else float(seconds)  # 0: no budget
        self.starve_after = starve_after
        self._people: collections.deque = collections.deque()
        self._bots: collections.deque = collections.deque()
        self._pending: dict = {}        # game_id -> its queued or running Job
        self._wake = None               # asyncio.Event: a job was queued
        self._slots: list = []          # one task per worker
        self.workers: list = []         # Worker, one per slot
        self.closed = False
        # For tests and statistics: dispatches (game_id, people, enqueued, dispatched, pid),
        # in the order they were made, and counters.
        self.history: collections.deque = collections.deque(maxlen=HISTORY)
        self.stats = {"decisions": 0, "capped": 0, "restarts": 0, "failed": 0, "retried": 0}

    @property
    def hard_timeout(self):
        return 3 * self.seconds + 10 if self.seconds else None

    # --- asking for a decision ------------------------------------------------------------

    def encode(self, game, agent, faction) -> bytes:
        """The job of one decision (raises if the agent cannot be pickled)."""
        return pickle.dumps((game.to_json(), agent, faction, self.seconds), protocol=5)

    async def decide(self, game_id: str, payload: bytes, people: bool):
        """(action, the agent after deciding, info) from a worker, once it is this game's turn."""
        if self.closed:
            raise asyncio.CancelledError()
        if game_id in self._pending:
            raise RuntimeError(f"game {game_id} already has a bot decision pending")
        self._start()
        loop = asyncio.get_running_loop()
        job = Job(game_id, people, payload, loop.create_future())
        self._pending[game_id] = job
        (self._people if people else self._bots).append(job)
        self._wake.set()
        try:
            return await job.future
        finally:
            # Cancelled (the game stopped, the server stops): a queued job is dropped where it
            # is (picked jobs whose future is done are skipped); a running one finishes unheard.
            if self._pending.get(game_id) is job:
                del self._pending[game_id]
            if not job.future.done():
                job.future.cancel()

    def waiting(self) -> int:
        return sum(1 for j in self._pending.values() if j.dispatched is None)

    # --- the workers ------------------------------------------------------------------------

    def _start(self):
        if self._slots or self.closed:
            return
        self._wake = asyncio.Event()
        for i in range(self.size):
            w = Worker()
            self.workers.append(w)
            self._slots.append(asyncio.get_running_loop().create_task(self._slot(w), name=f"cyclades-bot-worker-{i}"))

    def _pick(self):
        """The next job: people's games first (all-bot ones after starve_after seconds), each
        queue first come, first served."""
        for q in (self._people, self._bots):
            while q and q[0].future.done():
                q.popleft()
        if self._bots and time.monotonic() - self._bots[0].enqueued > self.starve_after:
            return self._bots.popleft()
        if self._people:
            return self._people.popleft()
        if self._bots:
            return self._bots.popleft()
        return None

    async def _next(self):
        while True:
            job = self._pick()
            if job is not None:
                return job
            self._wake.clear()
            await self._wake.wait()

    async def _slot(self, w: Worker):
        """One worker's loop: (re)start it, take the next job, run it, hand back the answer."""
        while not self.closed:
            try:
                await self._revive(w)
                job = await self._next()
            except asyncio.CancelledError:
                return
            except Exception:  # pragma: no cover - could not start a process at all
                log.exception("could not start a bot worker process")
                await asyncio.sleep(1)
                continue
            job.tries += 1
            job.dispatched = time.monotonic()
            self.history.append((job.game_id, job.people, job.enqueued, job.dispatched, w.pid))
            w.busy = True
            try:
                reply = await asyncio.wait_for(w.call(job.payload), self.hard_timeout)
            except asyncio.CancelledError:  # the pool closes: a busy worker is killed
                if not job.future.done():
                    job.future.cancel()
                return
            except WorkerDied as e:
                await self._died(w, job, e)
                continue
            except TimeoutError:
                await self._hung(w, job)
                continue
            w.busy = False
            if not job.future.done():
                self._answer(w, job, reply)

    async def _revive(self, w: Worker):
        """Start the worker if it is not running: again after it exited, backing off when it
        dies at once again and again (a broken install)."""
        if w.alive:
            return
        if w.proc is not None:
            await w.stop(0)
            self.stats["restarts"] += 1
            log.warning("a bot worker process (pid %s) exited; starting another", w.pid)
            quick = time.monotonic() - w.started < 2
            w.crashes = w.crashes + 1 if quick else 0
            if w.crashes:
                await asyncio.sleep(min(10.0, 0.25 * 2 ** w.crashes))
        await w.start()

    async def _died(self, w: Worker, job: Job, e: WorkerDied):
        """The worker died mid-decision: the decision goes first in its queue again, up to
        MAX_TRIES tries in all."""
        w.busy = False
        await w.stop(0)
        if job.future.done():
            return
        if job.tries < MAX_TRIES:
            self.stats["retried"] += 1
            log.warning("the bot worker of game %s died (%s): the decision is tried again",
                        job.game_id, e)
            job.dispatched = None
            (self._people if job.people else self._bots).appendleft(job)
            self._wake.set()
        else:
            self.stats["failed"] += 1
            job.future.set_exception(BotFailure(f"the bot's worker died {job.tries} times"))

    async def _hung(self, w: Worker, job: Job):
        """No answer within the hard timeout: the worker is killed, the decision fails."""
        w.busy = False
        log.error("a bot of game %s took over %.0f s: its worker (pid %s) is killed",
                  job.game_id, self.hard_timeout, w.pid)
        await w.stop(0)
        self.stats["failed"] += 1
        if not job.future.done():
            job.future.set_exception(BotFailure(f"no decision in {self.hard_timeout:.0f} s"))

    def _answer(self, w: Worker, job: Job, reply):
        """The worker's reply: the decision (action, agent after it, info) or its failure."""
        if reply[0] == "ok":
            _, action, agent, info = reply
            info["pid"] = w.pid
            info["waited"] = job.dispatched - job.enqueued
            self.stats["decisions"] += 1
            if info.get("capped"):
                self.stats["capped"] += 1
                log.info("a bot of game %s reached the %.1f s budget: it plays the best it "
                         "found in %d iterations", job.game_id, self.seconds, info.get("iterations") or 0)
            job.future.set_result((action, agent, info))
        else:
            self.stats["failed"] += 1
            job.future.set_exception(BotFailure(reply[1]))

    async def close(self):
        """Stop the workers (idle ones exit, busy ones are killed) and fail what waits."""
        self.closed = True
        await stop_tasks(self._slots)
        await asyncio.gather(*(w.stop() for w in self.workers), return_exceptions=True)
        for job in list(self._pending.values()):
            if not job.future.done():
                job.future.cancel()
        self._pending.clear()
        self._people.clear()
        self._bots.clear()


def remote(agent) -> bool:
    """Whether the agent decides in a worker: a registered bot kind (`make_agent`)."""
    from ..agents.registry import AGENTS
    return type(agent) in set(AGENTS.values())


# --- the bot runner: what the sessions call --------------------------------------------------------

class BotTable(Protocol):
    """What the bot runner needs of a game (sessions.Session): read the game and its seats,
    take its lock, keep each bot's agent, and commit a decision by the one path of all."""
    game_id: str
    game: Game
    seats: list
    lock: asyncio.Lock

    def is_bot(self, faction) -> bool: ...

    def agent(self, faction) -> Any: ...

    def replace_agent(self, faction, old, new) -> bool: ...

    async def commit(self, a: Action, timed_out: bool = False) -> list: ...


class BotRunner:
    """Bot decisions for the games: in the pool's worker processes, or, for an agent that cannot
    travel there, in this process's `cpu` threads."""

    def __init__(self, pool: BotPool, cpu: Executor):
        self.pool = pool
        self.cpu = cpu

    async def step(self, s: BotTable, seat, plain: bool = False):
        """One decision of the bot playing faction `seat` in game `s` (its bot task's step):
        chosen in a worker process (or, for a scripted agent, in a thread of this process) and
        committed if the game is still where it was; else nothing (the bot loop looks again).
        `plain`: the agent failed again and again here; a plain bot decides instead."""
        from ..agents.match import decide
        g = s.game
        if g.is_over or g.to_move != seat or not s.is_bot(seat):
            return
        agent = s.agent(seat)
        pool = self.pool
        payload = None
        if plain:
            from ..agents import make_agent
            log.warning("the bot of game %s failed %d times in a row: a plain bot decides this once",
                        s.game_id, PLAIN_AFTER)
            agent = make_agent("random", seed=g.state.version)
        elif pool.size and remote(agent):
            try:
                payload = pool.encode(g, agent, seat)
            except Exception as e:  # an agent that cannot travel decides here
                log.warning("the %s bot of game %s cannot be sent to a worker (%s): it decides in "
                            "the server process", getattr(agent, "name", agent), s.game_id, e)
        try:
            if payload is None:
                loop = asyncio.get_running_loop()
                async with s.lock:
                    g = s.game
                    if g.is_over or g.to_move != seat or not s.is_bot(seat):
                        return
                    a, _seconds = await loop.run_in_executor(self.cpu, decide, agent, g.copy(), seat)
                    await s.commit(a)
                return
            action, after, _info = await pool.decide(s.game_id, payload, _people(s))
            a = Action.from_json(action)
            async with s.lock:
                # Not while it thought: a decision stored by another process, the seat given away.
                if s.game.state.version != g.state.version or s.game.to_move != seat \
                        or not s.is_bot(seat) or not s.replace_agent(seat, agent, after):
                    return
                await s.commit(a)
        except SeatsChanged:
            return  # caught up with seats another process changed: the bot loop looks again

    async def decide_now(self, s: BotTable, agent, faction) -> Action:
        """The agent's action for `faction` in game `s` as it is (the caller holds the lock and
        keeps it: a timeout's decision, server/clocks.py): in a worker process when the agent can
        travel there, else in a thread of this process."""
        from ..agents.match import decide
        g, pool = s.game, self.pool
        if pool.size and remote(agent):
            try:
                payload = pool.encode(g, agent, faction)
            except Exception:
                payload = None
            if payload is not None:
                action, _after, _info = await pool.decide(s.game_id, payload, _people(s))
                return Action.from_json(action)
        a, _seconds = await asyncio.get_running_loop().run_in_executor(self.cpu, decide, agent, g.copy(), faction)
        return a


def _people(s: BotTable) -> bool:
    """Whether a person plays at the table (their games' bots go first, `BotPool`)."""
    return any(x.get("kind") == "human" for x in s.seats)


# --- the worker process ----------------------------------------------------------------------------

def _decide(request):
    from ..agents.match import decide
    from ..engine.game import Game
    game_json, agent, faction, budget = request
    game = Game.from_json(game_json)
    own = getattr(agent, "seconds", None) if hasattr(agent, "last_iterations") else None
    capped_budget = bool(budget) and hasattr(agent, "last_iterations") and (own is None or own > budget)
    if capped_budget:
        agent.seconds = float(budget)  # mcts: stops at its iterations or the budget, first
    try:
        action, seconds = decide(agent, game, faction)
    finally:
        if capped_budget:
            agent.seconds = own
    iterations = getattr(agent, "last_iterations", None)
    capped = capped_budget and seconds >= budget  # the clock, not the iterations, stopped it
    return action.to_json(), agent, {"seconds": seconds, "iterations": iterations, "capped": capped}


def worker_main():
    """Answer decisions read from stdin until it closes."""
    import signal
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write to the answers' pipe
    with contextlib.suppress(ValueError, OSError):  # pragma: no cover
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    try:
        nice = _env_number(ENV_NICE, int)
        os.nice(NICE if nice is None else nice)
    except (AttributeError, OSError):  # pragma: no cover
        pass
    while True:
        head = inp.read(4)
        if len(head) < 4:
            return
        body = inp.read(int.from_bytes(head, "big"))
        try:
            action, agent, info = _decide(pickle.loads(body))
            reply = pickle.dumps(("ok", action, agent, info), protocol=5)
        except Exception as e:
            reply = pickle.dumps(("error", f"{type(e).__name__}: {e}"), protocol=5)
        try:
            out.write(len(reply).to_bytes(4, "big") + reply)
            out.flush()
        except (BrokenPipeError, OSError):
            return


if __name__ == "__main__":
    worker_main()
