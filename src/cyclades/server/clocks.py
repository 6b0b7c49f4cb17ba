"""Clocks: a game's speed, each seat's time, and what happens when a seat's time runs out.

A game is untimed (as before), or has a speed chosen when it is made (`SPEEDS`): live (20 s a
decision, then a bank of 8 minutes) or turn-based (a day, or three, a decision, then a bank of
days). Each decision of a seat has its `per` seconds free; time beyond them comes out of the
seat's bank. When the seat to move has used both, the bot of the level the table chose (its
`bot` setting, else the lobby's default) makes that decision and the seat's timeouts count
one more; after `TIMEOUTS_TO_BOT` the seat passes to that bot for good.

Time is the server's (`now`), and the clocks live in the game's row (store.games: `clocks`,
JSON, and `deadline`, when the seat to move runs out), written in the same transaction as each
decision (`after_decision`, through `Session.commit`): a restart loses no clock, and every
server process reads the same. Each process sweeps the due clocks every `SWEEP` seconds
(`Timekeeper`); a due game is claimed by an atomic UPDATE on its lease (store.claim_due), so a
timeout is decided once however many processes sweep; a process that stops gives back what it
claimed and did not decide, and the claims of one killed lapse after `LEASE` seconds.

Tests move the server's time on: `$CYCLADES_CLOCK_FILE` names a file holding seconds added to
the system's time (every process of a test reads the same file: days pass in a second).
"""
from __future__ import annotations

import asyncio
import copy
import logging
import os
import time
from dataclasses import dataclass

from ..content.i18n import N_, _
from .tasks import stop_tasks

log = logging.getLogger("cyclades.server")

TIMEOUTS_TO_BOT = 3   # timeouts of one seat in one game after which a bot plays it for good
LEASE = 60.0          # seconds a process has to decide a timeout it claimed
SWEEP = float(os.environ.get("CYCLADES_CLOCK_SWEEP_SECONDS", "2"))  # how often due clocks are looked for
CLOCK_FILE = "CYCLADES_CLOCK_FILE"


@dataclass(frozen=True)
class Speed:
    name: str
    per: float          # seconds each decision has before the bank is drawn on
    bank: float         # seconds in each seat's bank at the start
    turn_based: bool    # players are told when it is their turn (server/notify.py)
    label: str          # for people, a whole sentence (a catalog message: said in the reader's language)


SPEEDS = {
    "live": Speed("live", 20, 8 * 60, False,
                  N_("Live: 20 seconds a decision, and 8 minutes in the bank for the long ones.")),
    "turn-based": Speed("turn-based", 24 * 3600, 3 * 24 * 3600, True,
                        N_("Turn-based: a day a decision, and 3 days in the bank.")),
    "turn-based-72h": Speed("turn-based-72h", 72 * 3600, 7 * 24 * 3600, True,
                            N_("Turn-based: three days a decision, and 7 days in the bank.")),
}


def now() -> float:
    """The server's time: the system's, moved on by the seconds in $CYCLADES_CLOCK_FILE (tests)."""
    t = time.time()
    path = os.environ.get(CLOCK_FILE)
    if path:
        try:
            with open(path) as f:
                t += float(f.read().strip() or 0)
        except (OSError, ValueError):
            pass
    return t


def speed_of(settings: dict) -> Speed | None:
    return SPEEDS.get((settings or {}).get("speed") or "")


# --- the clocks of one game (JSON in its row) -------------------------------------------------------

def start(speed: Speed, seats: int, waiting: int | None, at: float) -> dict:
    """A new game's clocks: every bank full; `waiting`: the seat to move (None: a bot)."""
    return {"speed": speed.name, "per": speed.per, "banks": [float(speed.bank)] * seats,
            "timeouts": [0] * seats, "seat": waiting, "since": at if waiting is not None else None}


def deadline(clocks: dict | None) -> float | None:
    """When the seat to move runs out of time (None: no clock runs)."""
    if not clocks or clocks.get("seat") is None:
        return None
    return clocks["since"] + clocks["per"] + clocks["banks"][clocks["seat"]]


def after_decision(clocks: dict, decider: int | None, waiting: int | None, at: float,
                   timed_out: bool = False) -> dict:
    """The clocks once seat `decider` decided at `at` (what it used beyond `per` leaves its
    bank; `timed_out`: a bot decided for it, one more timeout) and seat `waiting` (None: a bot,
    or the game is over) is to move from `at`."""
    c = copy.deepcopy(clocks)
    if decider is not None and c.get("seat") == decider and c.get("since") is not None:
        used = max(0.0, at - c["since"])
        c["banks"][decider] = max(0.0, c["banks"][decider] - max(0.0, used - c["per"]))
    if timed_out and decider is not None:
        c["banks"][decider] = 0.0
        c["timeouts"][decider] += 1
    c["seat"], c["since"] = waiting, (at if waiting is not None else None)
    return c


def waiting_again(clocks: dict, waiting: int | None, at: float) -> dict:
    """The clocks of a game whose seat to move starts its time again from `at`, nothing
    charged (an open seat of the table is still free), or stops (`waiting` None: a bot plays it)."""
    c = copy.deepcopy(clocks)
    c["seat"], c["since"] = waiting, (at if waiting is not None else None)
    return c


def public(clocks: dict | None) -> dict | None:
    """The clocks as the pages show them: each seat's bank and timeouts, the seat whose time
    runs and its deadline, and the server's time now (the page counts down from it)."""
    if not clocks:
        return None
    speed = SPEEDS.get(clocks.get("speed"))
    return {"speed": clocks.get("speed"), "label": _(speed.label) if speed else None,
            "turn_based": bool(speed and speed.turn_based), "per": clocks["per"],
            "banks": clocks["banks"], "timeouts": clocks["timeouts"], "seat": clocks.get("seat"),
            "since": clocks.get("since"), "deadline": deadline(clocks), "now": now(),
            "timeouts_to_bot": TIMEOUTS_TO_BOT}


# --- the timeouts ---------------------------------------------------------------------------------

class Timekeeper:
    """Every `every` seconds, claim the games whose clock ran out (store.claim_due) and have
    their sessions decide the timeout (`Session.time_out`)."""

    def __init__(self, manager, every: float = SWEEP):
        self.m = manager
        self.every = every
        self.task: asyncio.Task | None = None
        self.fired = 0   # timeouts decided by this process (tests, benchmarks)
        self.claimed: dict = {}   # game_id -> its lease: claimed here, not decided yet

    def start(self):
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self):
        """Stop sweeping; the timeouts claimed and not decided are given back at once (else
        their lease would have to lapse first)."""
        await stop_tasks([self.task])
        if self.claimed:
            try:
                await self.m.db(self.m.store.release_claims, dict(self.claimed))
            except Exception as e:
                log.warning("the timeouts claimed here could not be given back (%s): they are "
                            "claimed again in %.0f s", type(e).__name__, LEASE)

    async def _run(self):
        while not self.m.closing:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                from .errors import database_down
                if database_down(e):
                    log.warning("the clocks' sweep failed: the database does not answer (%s)",
                                type(e).__name__)
                else:
                    log.exception("the clocks' sweep failed")

    async def sweep(self) -> int:
        """Claim the due clocks and decide their timeouts; how many were claimed."""
        due = await self.m.db(self.m.store.claim_due, now(), LEASE)
        self.claimed.update((game_id, lease) for game_id, _version, lease in due)
        for game_id, version, _lease in due:
            try:
                s = await self.m.get(game_id)
                if await s.time_out(version):
                    self.fired += 1
            except asyncio.CancelledError:
                raise
            except Exception as e:  # its lease lapses: a later sweep tries again
                log.warning("the timeout of game %s failed (%s: %s); it is tried again later",
                            game_id, type(e).__name__, e)
            self.claimed.pop(game_id, None)
        return len(due)
