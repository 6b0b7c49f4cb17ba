"""Help at the table: hints for the seat to move, and win chances over a game.

    POST /api/games/{id}/hint      {"token": ...}   the expert level's choice for the seat's
                                                    current decision, with a reason (agents/advice.py)
    GET  /api/games/{id}/chances                    each player's estimated chance to win, per cycle
                                                    (a finished game; 409 while it goes on)
    GET  /api/replays/{rid}/chances                 the same for a replay (finished games, uploads)

Included in the app by `app.include_router(advice.router)`.

A hint is searched from the seat's own observation only (R24), in a thread of its own with a
time budget (`HINT_SECONDS`), one at a time per seat (429 otherwise). A hint for each decision is
always given: a position further on than any the seat had a hint for is never refused, and the
hint of a position is kept, so asking again costs nothing. Only positions met again after an
undo, which a client could ask for without end, are limited to `HINT_RATE` a minute per seat.
Chances are computed once per finished game (evaluation.win_chances at the end of each cycle,
about a millisecond a cycle) and kept.
"""
from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr

from ..agents import advice
from ..content.i18n import N_
from .errors import Refused

HINT_SECONDS = 1.5       # the search's budget per hint (the reason adds a little)
HINT_RATE = 12           # hints a minute per seat for positions met again after an undo
KEPT = 256               # hints and chance documents kept in memory

router = APIRouter()
_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cyclades-hints")


class HintBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr
    version: StrictInt | None = None


def _state(request):
    st = request.app.state
    if not hasattr(st, "advice"):
        st.advice = {"hints": OrderedDict(), "chances": OrderedDict(), "busy": set(), "asked": {},
                     "furthest": {}}
    return st.advice


def _keep(cache: OrderedDict, key, value):
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > KEPT:
        cache.popitem(last=False)


def _refusals(*codes):
    what = {403: "not a seat of this game, or not its move", 404: "no such game or replay",
            409: "stale version, the game is over, or (chances) not over yet",
            429: "one hint at a time; or too many for decisions taken back"}
    return {c: {"description": what[c]} for c in codes}


@router.post("/api/games/{game_id}/hint", responses=_refusals(403, 404, 409, 429))
async def post_hint(game_id: str, body: HintBody, request: Request):
    """What the expert level would play for the seat to move, and why (from what that seat
    knows only)."""
    s = await request.app.state.manager.get(game_id)
    seat = await s.seat_for(body.token)
    if seat is None:
        raise Refused(403, N_("a seat's token is required for a hint"))
    g = s.game
    if g.is_over:
        raise Refused(409, N_("the game is over"))
    if s.seats[seat]["kind"] != "human" or g.to_move not in s.factions_of[seat]:
        raise Refused(403, N_("a hint is for your own move: the game waits on someone else"))
    version = g.state.version
    if body.version is not None and body.version != version:
        raise Refused(409, N_("stale version {given}: the game is at version {current}"),
            given=body.version, current=version)
    faction = g.to_move
    key = (game_id, version, faction, s.undos)  # after an undo a version may be another position
    st = _state(request)
    hit = st["hints"].get(key)
    if hit is not None:
        return hit
    who = (game_id, seat)
    if who in st["busy"]:
        raise Refused(429, N_("a hint is already being worked out for you"))
    if version <= st["furthest"].get(who, -1):  # a position met again, after an undo
        now = time.monotonic()
        asked = st["asked"].setdefault(who, deque())
        while asked and now - asked[0] > 60:
            asked.popleft()
        if len(asked) >= HINT_RATE:
            raise Refused(429, N_("at most {rate} hints a minute for decisions taken back: try again in a moment"),
                rate=HINT_RATE)
        asked.append(now)
    st["furthest"][who] = max(version, st["furthest"].get(who, -1))
    st["busy"].add(who)
    obs = g.observe(faction)              # the seat's own view only (R24); g is never changed
    names = list(s.names)
    seed = advice.hint_seed(game_id, version, faction)
    t0 = time.perf_counter()
    try:
        h = await asyncio.get_running_loop().run_in_executor(
            _pool, lambda: advice.hint_from_observation(obs, seed=seed, seconds=HINT_SECONDS, names=names))
    finally:
        st["busy"].discard(who)
    out = {"game_id": game_id, "version": version, "player": faction, **h.to_json(),
           "seconds": round(time.perf_counter() - t0, 3)}
    _keep(st["hints"], key, out)
    return out


@router.get("/api/games/{game_id}/chances", responses=_refusals(404, 409))
async def get_chances(game_id: str, request: Request):
    """Each player's (each team's) estimated chance to win at the end of every cycle of a
    finished game: evaluation.win_chances of the position, the result at the end."""
    s = await request.app.state.manager.get(game_id)
    if not s.game.is_over:
        raise Refused(409, N_("chances are shown once the game is over"))
    return {"game_id": game_id, **await _chances(request, game_id)}


@router.get("/api/replays/{rid}/chances", responses=_refusals(404, 409))
async def get_replay_chances(rid: str, request: Request):
    """The chances of a replay: a finished game of this server or an uploaded record (not a
    running game's: that would need what its players hide)."""
    return {"replay_id": rid, **await _chances(request, rid)}


async def _chances(request, rid: str) -> dict:
    from .replays import any_replay
    st = _state(request)
    hit = st["chances"].get(rid)
    if hit is not None:
        return hit
    r = await any_replay(request, rid)
    if r.public or not r.over:
        raise Refused(409, N_("chances are shown once the game is over"))
    doc = await asyncio.get_running_loop().run_in_executor(_pool, advice.chances_of_replay, r)
    _keep(st["chances"], rid, doc)
    return doc
