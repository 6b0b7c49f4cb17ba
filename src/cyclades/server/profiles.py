"""A player's profile: games played and won per mode, ratings with their history, recent games.

    GET /api/players/{name}

Public, as on any game site: the name, when the account was made, the finished games (with
their replays), the ratings. A deleted account has no profile (404).
"""
from __future__ import annotations

import json

import sqlalchemy as sa
from fastapi import APIRouter, Request

from ..content.i18n import N_
from .account_store import find_account
from .errors import Refused, refusals
from .people_schema import rating_history, ratings, seat_holders
from .playnow import mode_of
from .ratings import EDITIONS, account_subject, shown
from .store import games

RECENT = 20
HISTORY = 200

router = APIRouter()


def _finished(engine, account_id: int) -> list:
    with engine.connect() as c:
        return c.execute(sa.select(seat_holders.c.game_id, seat_holders.c.seat, seat_holders.c.finished,
                                   seat_holders.c.place, seat_holders.c.won, games.c.options, games.c.seats,
                                   games.c.settings, games.c.cycle)
                         .join(games, games.c.game_id == seat_holders.c.game_id)
                         .where(seat_holders.c.account_id == account_id, seat_holders.c.state == "playing",
                                seat_holders.c.finished.is_not(None))
                         .order_by(seat_holders.c.finished.desc())).all()


def _ratings(engine, subject: str) -> tuple:
    with engine.connect() as c:
        now = c.execute(sa.select(ratings).where(ratings.c.subject == subject)).all()
        history = c.execute(sa.select(rating_history).where(rating_history.c.subject == subject)
                            .order_by(rating_history.c.at.desc()).limit(HISTORY)).all()
        ranks = {}
        for r in now:
            ranks[r.edition] = 1 + c.execute(
                sa.select(sa.func.count()).select_from(ratings)
                .where(ratings.c.edition == r.edition, ratings.c.subject.like("account:%"),
                       ratings.c.mu - 3 * ratings.c.sigma > r.mu - 3 * r.sigma)).scalar()
    return now, history, ranks


@router.get("/api/players/{name}", responses=refusals(404, what={404: "no such player"}))
async def profile(name: str, request: Request):
    """`modes`: games played and won per mode; `ratings` per edition (the shown rating, mu,
    sigma, games, wins, place on the leaderboard, `history` oldest first); `recent`: the last
    finished games, each with its place, the rating it moved and its replay."""
    people = request.app.state.people
    row = await people.db(find_account, name) if len(name) <= 200 else None
    if row is None:
        raise Refused(404, N_("no player is called {name}"), name=repr(name))
    games = await people.db(_finished, row.id)
    now, history, ranks = await people.db(_ratings, account_subject(row.id))
    modes: dict = {}
    for g in games:
        mode = mode_of(json.loads(g.options))
        m = modes.setdefault(mode["label"], {**mode, "played": 0, "won": 0})
        m["played"] += 1
        m["won"] += int(bool(g.won))
    moved = {(h.game_id): {"before": h.before, "after": h.after} for h in history}
    out_ratings = {}
    for r in now:
        out_ratings[r.edition] = {
            "rating": shown(r.mu, r.sigma), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
            "games": r.games, "wins": r.wins, "rank": ranks[r.edition],
            "history": [{"at": h.at, "game_id": h.game_id, "rating": h.after}
                        for h in reversed(history) if h.edition == r.edition]}
    recent = []
    for g in games[:RECENT]:
        seats = json.loads(g.seats)
        recent.append({"game_id": g.game_id, "finished": g.finished, "mode": mode_of(json.loads(g.options)),
                       "place": g.place, "won": bool(g.won), "cycle": g.cycle,
                       "rated": bool(json.loads(g.settings or "{}").get("rated")),
                       "rating": moved.get(g.game_id), "players": [x.get("name") for x in seats],
                       "replay": f"/replay/{g.game_id}"})
    return {"name": row.name, "created": row.created, "played": len(games),
            "won": sum(1 for g in games if g.won),
            "modes": sorted(modes.values(), key=lambda m: (-m["played"], m["label"])),
            "ratings": {e: out_ratings[e] for e in EDITIONS if e in out_ratings}, "recent": recent}
