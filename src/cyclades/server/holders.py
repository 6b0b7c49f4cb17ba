"""Which account holds which seat: the bridge between accounts and games.

A game's seats stay what they always were (store.py: a kind, a name, a secret token each); a
row of `seat_holders` says that an account holds one of them, or is invited to it:

- `playing`: the account's seat. It got there by "Play now" (playnow.py), by creating the game
  while logged in (its "you" seat), by a guest keeping the seat of their link (`keep_seat`), or
  by accepting an invitation by name. "My games" lists these, each with its seat's link.
- `invited`: the host invited the account by name (`invite`): the seat has a fresh link known
  only to the server, handed to the invitee when they accept (mygames.py).

When the game ends, each row gets the seat's place (`places`: the winners first, R21; then by
metropolises, then by GP; equal figures share a place) and whether it won (ratings.settle),
which the profiles count. A seat held by an account carries the account's name; a deleted
account's seats are renamed "former player" (accounts.forget_account).
"""
from __future__ import annotations

import json
import time

import sqlalchemy as sa

from ..content.i18n import N_
from .auth import account_of
from .errors import Refused
from .people_schema import accounts, seat_holders
from .store import games
from .sync import change_seats

# --- the database side -------------------------------------------------------------------------

def holders_of(engine, game_id: str) -> dict:
    """{seat: {"account_id", "state", "name"}} of one game."""
    with engine.connect() as c:
        rows = c.execute(sa.select(seat_holders.c.seat, seat_holders.c.account_id, seat_holders.c.state,
                                   accounts.c.name)
                         .join(accounts, accounts.c.id == seat_holders.c.account_id)
                         .where(seat_holders.c.game_id == game_id)).all()
    return {r.seat: {"account_id": r.account_id, "state": r.state, "name": r.name} for r in rows}


def hold(engine, game_id: str, seat: int, account_id: int, state: str) -> None:
    """The account holds (or is invited to) the seat; replaces whoever held it."""
    with engine.begin() as c:
        c.execute(seat_holders.delete().where(seat_holders.c.game_id == game_id,
                                              seat_holders.c.seat == seat))
        c.execute(seat_holders.insert().values(game_id=game_id, seat=seat, account_id=account_id,
                                               state=state, since=time.time()))


def hold_many(engine, game_id: str, seats: dict) -> None:
    """{seat: account_id}: a new game's seats, all `playing`."""
    now = time.time()
    with engine.begin() as c:
        for seat, account_id in seats.items():
            c.execute(seat_holders.insert().values(game_id=game_id, seat=seat, account_id=account_id,
                                                   state="playing", since=now))


def release(engine, game_id: str, seat: int, account_id: int, state: str | None = None) -> int:
    q = seat_holders.delete().where(seat_holders.c.game_id == game_id, seat_holders.c.seat == seat,
                                    seat_holders.c.account_id == account_id)
    if state:
        q = q.where(seat_holders.c.state == state)
    with engine.begin() as c:
        return c.execute(q).rowcount


def set_state(engine, game_id: str, seat: int, account_id: int, old: str, new: str) -> bool:
    with engine.begin() as c:
        return bool(c.execute(seat_holders.update().where(
            seat_holders.c.game_id == game_id, seat_holders.c.seat == seat,
            seat_holders.c.account_id == account_id, seat_holders.c.state == old)
            .values(state=new, since=time.time())).rowcount)


def seats_of_account(engine, account_id: int) -> list:
    """The (game_id, seat, state) an account holds or is invited to."""
    with engine.connect() as c:
        return c.execute(sa.select(seat_holders.c.game_id, seat_holders.c.seat, seat_holders.c.state)
                         .where(seat_holders.c.account_id == account_id)).all()


def rename_stored_seat(store, game_id: str, seat: int, name: str) -> None:
    """Rename a seat of a game that is not in this process's memory: compare-and-set on the
    stored seats (store.replace_seats; other processes holding it catch up, sync.py)."""
    for _ in range(8):
        with store.engine.connect() as c:
            row = c.execute(sa.select(games.c.seats, games.c.status)
                            .where(games.c.game_id == game_id)).first()
        if row is None:
            return
        old = json.loads(row.seats)
        if not 0 <= seat < len(old) or old[seat].get("name") == name:
            return
        new = json.loads(row.seats)
        new[seat]["name"] = name
        if store.replace_seats(game_id, old, new, row.status):
            return
    raise Refused(503, N_("the seats were changing too fast; try again"))


def settle_one_seat(engine, game_id: str, seat: int, place: int, won: bool) -> None:
    with engine.begin() as c:
        c.execute(seat_holders.update().where(seat_holders.c.game_id == game_id,
                                              seat_holders.c.seat == seat,
                                              seat_holders.c.finished.is_(None))
                  .values(finished=time.time(), place=place, won=won))


# --- places -----------------------------------------------------------------------------------------

def places(game, factions_of: list) -> list:
    """(place, won) of each seat: 0 is first; seats with equal figures share a place."""
    r = game.result()
    keys = []
    for fs in factions_of:
        f = fs[0]
        won = any(x in r["winners"] for x in fs)
        keys.append((0 if won else 1, -game.side_metropolises(f, r["metropolises"]), -r["gp"][f]))
    order = sorted(set(keys))
    return [(order.index(k), k[0] == 0) for k in keys]


def sides(game, factions_of: list) -> list:
    """The seats of each side that is ranked: a team in team play, else each seat."""
    if not game.teams:
        return [[i] for i in range(len(factions_of))]
    by_team: dict = {}
    for i, fs in enumerate(factions_of):
        by_team.setdefault(game.teams[fs[0]], []).append(i)
    return list(by_team.values())


# --- seats and accounts ---------------------------------------------------------------------------

async def rename_seat(people, game_id: str, seat: int, name: str) -> None:
    """A seat takes a name: through the live game if this process holds it (its log names the
    seat so from now on), else in the database."""
    s = people.m.sessions.get(game_id)
    if s is None:
        await people.call(rename_stored_seat, people.m.store, game_id, seat, name)
        return
    if s.seats[seat].get("name") == name:
        return

    def rename(seats):
        seats[seat]["name"] = name
    await change_seats(s, rename)
    s.pages.tell()


async def check_keep(people, account: dict | None, game_id: str, token: str):
    """Refuse (changing nothing) a seat that cannot be kept: an unknown game (404), a token that
    is no seat of it (403), a seat another account holds, or a second seat in one game (409).
    The session and the seat."""
    s = await people.m.get(game_id)
    seat = await s.seat_for(token)
    if seat is None:
        raise Refused(403, N_("a seat's token is needed to keep it"))
    held = await people.db(holders_of, game_id)
    h = held.get(seat)
    if h is not None and h["state"] == "playing" and (account is None or h["account_id"] != account["id"]):
        raise Refused(409, N_("this seat is already kept in another account"))
    if account is not None:
        for other, x in held.items():
            if other != seat and x["account_id"] == account["id"] and x["state"] == "playing":
                raise Refused(409, N_("you already hold seat {seat} of this game"), seat=other + 1)
    return s, seat


async def keep_seat(people, account: dict, game_id: str, token: str) -> dict:
    """The guest seat of this link becomes the account's: held, named after the account, and
    (a finished game) counted in its profile."""
    s, seat = await check_keep(people, account, game_id, token)
    await people.db(hold, game_id, seat, account["id"], "playing")
    await rename_seat(people, game_id, seat, account["name"])
    if s.game.is_over:  # a finished game was settled when it ended: this seat's place now
        place, won = places(s.game, s.factions_of)[seat]
        await people.db(settle_one_seat, game_id, seat, place, won)
    return {"game_id": game_id, "seat": seat, "url": f"/game/{game_id}?token={s.seats[seat]['token']}"}


async def invite(people, s, seat: int, account_id: int, name: str) -> None:
    """Keep a seat for an account (an invitation by name): the seat gets a new link (the old one
    stops working), which only the invitee gets, by accepting."""
    await s.set_seat(seat, "invite", name)
    await people.db(hold, s.game_id, seat, account_id, "invited")


async def creator_holds(request, s) -> None:
    """A game created while logged in: the creator's own seat ("you") is the account's, and
    takes its name."""
    people = getattr(request.app.state, "people", None)
    account = account_of(request, required=False)
    seat = next((i for i, x in enumerate(s.seats) if x.get("access") == "host"), None)
    if people is None or account is None or seat is None:
        return
    await people.db(hold, s.game_id, seat, account["id"], "playing")
    await rename_seat(people, s.game_id, seat, account["name"])
