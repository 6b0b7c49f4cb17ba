"""The end of a game for the people in it: each seat's place, the ratings, the leaderboard.

    settle(people, session)          when a game ends (people.py calls it, once per game)
    GET /api/leaderboard?edition=    the rated players of an edition, best first

**Places** (holders.places): each seat held by an account gets its place and whether it won,
for the profiles.

**Ratings**: openskill's Plackett-Luce model (the one `cyclades ladder` rates bots with), one
rating per edition ("legendary", "classic") per player. A game is rated when its table said so
(play now: `settings["rated"]`); a bot at the table makes it unrated unless the table also said
so (`settings["bots_rated"]`), and then each bot level has a rating of its own, moved like
anyone's. A guest seat plays as a newcomer whose rating is not kept. Team games rate the teams
(2 players: each person is a team). The number people see is conservative:
`1500 + 24 * (mu - 3 sigma)`, 1500 for a newcomer, growing as the rating firms up.

Exactly once: the first statement of the transaction marks the game's seats finished
(`finished IS NULL` before); a second process (or the sweep) finding none unmarked stops there.
"""
from __future__ import annotations

import logging
import time

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request

from ..content.i18n import N_
from .account_store import display_name
from .errors import Refused, refusals
from .holders import holders_of, places, sides
from .people_schema import accounts, rating_history, ratings, seat_holders
from .store import games

log = logging.getLogger("cyclades.server")

RATING_BASE, RATING_SCALE = 1500, 24
EDITIONS = ("legendary", "classic")



router = APIRouter()


def shown(mu: float, sigma: float) -> int:
    return round(RATING_BASE + RATING_SCALE * (mu - 3 * sigma))


def account_subject(account_id: int) -> str:
    return f"account:{account_id}"


# --- the database side --------------------------------------------------------------------------------

def _settle(engine, game_id: str, edition: str, seat_places: list, subjects: list | None,
            side_seats: list) -> dict | None:
    """Mark the held seats finished with their places and, for a rated game (`subjects`: per
    seat a subject or None), move the ratings. None if the game was settled already."""
    now = time.time()
    with engine.begin() as c:
        n = c.execute(seat_holders.update().where(seat_holders.c.game_id == game_id,
                                                  seat_holders.c.state == "playing",
                                                  seat_holders.c.finished.is_(None))
                      .values(finished=now)).rowcount
        if not n:
            return None
        for seat, (place, won) in enumerate(seat_places):
            c.execute(seat_holders.update().where(seat_holders.c.game_id == game_id,
                                                  seat_holders.c.seat == seat)
                      .values(place=place, won=won))
        c.execute(seat_holders.delete().where(seat_holders.c.game_id == game_id,
                                              seat_holders.c.state == "invited"))
        if not subjects:
            return {"rated": False}
        return {"rated": True, "moves": _rate(c, game_id, edition, seat_places, subjects, side_seats, now)}


def _rate(c, game_id, edition, seat_places, subjects, side_seats, now) -> dict:
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    named = sorted({s for s in subjects if s})
    rows = {r.subject: r for r in c.execute(
        sa.select(ratings).where(ratings.c.edition == edition, ratings.c.subject.in_(named))
        .order_by(ratings.c.subject).with_for_update())}
    teams, ranks = [], []
    for seats in side_seats:
        team = []
        for seat in seats:
            r = rows.get(subjects[seat])
            team.append(model.rating(mu=r.mu, sigma=r.sigma) if r else model.rating())
        teams.append(team)
        ranks.append(seat_places[seats[0]][0])
    new = model.rate(teams, ranks=ranks)
    moves = {}
    for seats, team in zip(side_seats, new):
        for seat, rating in zip(seats, team):
            subject = subjects[seat]
            if not subject or subject in moves:
                continue
            old = rows.get(subject)
            before = shown(old.mu, old.sigma) if old else shown(*_newcomer(model))
            won = int(seat_places[seat][1])
            if old:
                c.execute(ratings.update().where(ratings.c.subject == subject, ratings.c.edition == edition)
                          .values(mu=rating.mu, sigma=rating.sigma, games=old.games + 1,
                                  wins=old.wins + won, updated=now))
            else:
                c.execute(ratings.insert().values(subject=subject, edition=edition, mu=rating.mu,
                                                  sigma=rating.sigma, games=1, wins=won, updated=now))
            after = shown(rating.mu, rating.sigma)
            c.execute(rating_history.insert().values(subject=subject, edition=edition, game_id=game_id,
                                                     at=now, before=before, after=after,
                                                     mu=rating.mu, sigma=rating.sigma))
            moves[subject] = (before, after)
    return moves


def _newcomer(model):
    r = model.rating()
    return r.mu, r.sigma


def unsettled_games(engine, limit: int = 50) -> list:
    """Finished games with held seats not yet settled (their process stopped first)."""
    with engine.connect() as c:
        return [r[0] for r in c.execute(
            sa.select(seat_holders.c.game_id).distinct()
            .join(games, games.c.game_id == seat_holders.c.game_id)
            .where(games.c.status == "over", seat_holders.c.state == "playing",
                   seat_holders.c.finished.is_(None)).limit(limit))]


def forget_ratings(engine, account_id: int) -> None:
    subject = account_subject(account_id)
    with engine.begin() as c:
        c.execute(ratings.delete().where(ratings.c.subject == subject))
        c.execute(rating_history.delete().where(rating_history.c.subject == subject))


def leaderboard(engine, edition: str, limit: int, bots: bool) -> list:
    q = (sa.select(ratings.c.subject, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins,
                   accounts.c.name)
         .select_from(ratings.outerjoin(accounts, ratings.c.subject ==
                                        sa.literal("account:") + sa.cast(accounts.c.id, sa.String)))
         .where(ratings.c.edition == edition)
         .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.games.desc())
         .limit(limit))
    q = q.where(sa.or_(accounts.c.deleted.is_(None) & accounts.c.name.is_not(None),
                       ratings.c.subject.like("bot:%") if bots else sa.false()))
    with engine.connect() as c:
        return c.execute(q).all()


# --- when a game ends -------------------------------------------------------------------------------------

def rated_subjects(s, held: dict) -> list | None:
    """Per seat who is rated (a subject, or None for a guest), or None for an unrated game."""
    settings = s.settings or {}
    if not settings.get("rated"):
        return None
    bots = [x["kind"] for x in s.seats if x["kind"] != "human"]
    if bots and not settings.get("bots_rated"):
        return None
    subjects = []
    for i, x in enumerate(s.seats):
        h = held.get(i)
        if x["kind"] != "human":
            subjects.append(f"bot:{x['kind']}")
        elif h and h["state"] == "playing" and h["name"]:
            subjects.append(account_subject(h["account_id"]))
        else:
            subjects.append(None)
    people_rated = sum(1 for x in subjects if x and x.startswith("account:"))
    return subjects if people_rated and len({x for x in subjects if x}) >= 2 else None


async def settle(people, s) -> dict | None:
    """Record the end of a finished game for its held seats, and move the ratings (once)."""
    held = await people.db(holders_of, s.game_id)
    if not any(h["state"] == "playing" for h in held.values()):
        return None
    seat_places = places(s.game, s.factions_of)
    subjects = rated_subjects(s, held)
    edition = s.game.options.get("ruleset", "legendary")
    for attempt in range(5):
        try:
            return await people.db(_settle, s.game_id, edition, seat_places, subjects,
                                   sides(s.game, s.factions_of))
        except sa.exc.DBAPIError:  # two games of one newcomer at once, a deadlock: again
            if attempt == 4:
                raise
            log.warning("settling game %s collided with another; again", s.game_id)
    return None


# --- the leaderboard -------------------------------------------------------------------------------------

@router.get("/api/leaderboard", responses=refusals(422, what={422: "no such edition"}))
async def get_leaderboard(request: Request, edition: str = Query("legendary"),
                          limit: int = Query(100, ge=1, le=1000), bots: bool = False):
    """The rated players of an edition, best first (by the shown rating); `bots=true` lists the
    bot levels that played rated games too."""
    if edition not in EDITIONS:
        raise Refused(422, N_("no edition {edition}: one of {known}"), edition=repr(edition), known=', '.join(EDITIONS))
    people = request.app.state.people
    rows = await people.db(leaderboard, edition, limit, bots)
    out = []
    for i, r in enumerate(rows):
        bot = r.subject.startswith("bot:")
        out.append({"rank": i + 1, "name": r.subject[4:] if bot else display_name(r.name), "bot": bot,
                    "rating": shown(r.mu, r.sigma), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                    "games": r.games, "wins": r.wins})
    return {"edition": edition, "players": out}
