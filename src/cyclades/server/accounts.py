"""Accounts: sign up with a name and a password, log in and out, change the password, delete
the account, and keep a guest's seat.

    POST   /api/account/signup            {"name", "password", "keep"?}   201, logged in
    POST   /api/account/login             {"name", "password", "keep"?}   logged in
    POST   /api/account/logout                                            this login ends
    POST   /api/account/logout-everywhere                                 every login ends
    GET    /api/account                                                   who am I (or null)
    POST   /api/account/password          {"old", "new"}                  the other logins end
    DELETE /api/account                   {"password"}                    games stay, "former player"
    POST   /api/account/seats             {"game_id", "token"}            keep a guest's seat

Names and passwords: account_store.py (Argon2id, hashed on the People's own threads). A
failed login answers the same for an unknown name and a wrong password, and takes as long.
`keep` (`{"game_id", "token"}`): the guest seat of that link becomes the account's (holders.py).
A deleted account's games stay, each of its seats named "former player" (`forget_account`).
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..content.i18n import N_
from . import auth, i18n
from .account_store import (
    FORMER_PLAYER,
    NAME_MAX,
    account_row,
    check_name,
    check_password,
    create_account,
    find_account,
    name_key,
    set_password,
    setting,
    tombstone,
)
from .errors import Refused, refusals
from .holders import check_keep, keep_seat, release, rename_seat, seats_of_account
from .mygames import counts
from .playnow import leave_all
from .ratings import forget_ratings
from .security import client_key

router = APIRouter()

# What the routes' refusals mean (the OpenAPI schema's words).
REFUSALS = {401: "not logged in, the login has run out or ended, or a wrong name or password",
           403: "a request from a page of another site, or without the login's CSRF token; "
                "or a token that is not a seat of this game",
           404: "no such game", 409: "the name is taken, or the seat is someone else's",
           422: "a name or password the rules refuse (the message says why)",
           429: "too many attempts from this address or for this name (Retry-After)"}


# --- the routes -----------------------------------------------------------------------------------------

class Keep(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game_id: StrictStr = Field(max_length=64)
    token: StrictStr = Field(max_length=200, description="the seat's token (its secret link)")


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: StrictStr = Field(max_length=200)
    password: StrictStr = Field(max_length=1000)
    keep: Keep | None = Field(None, description="a guest seat to keep in this account")


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: StrictStr = Field(max_length=1000)
    new: StrictStr = Field(max_length=1000)


class Confirm(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: StrictStr = Field(max_length=1000)


def _logged_in(request: Request, account_id: int, name: str, token: str, csrf: str,
               status: int = 200, extra: dict | None = None) -> JSONResponse:
    people = request.app.state.people
    body = {"account": {"id": account_id, "name": name}, "csrf": csrf, **(extra or {})}
    response = JSONResponse(body, status_code=status)
    auth.set_login_cookies(response, token, csrf, people.settings.session_days,
                           auth.secure(request.url.scheme, people.settings.secure_cookies))
    return response


@router.post("/api/account/signup", status_code=201, responses=refusals(403, 404, 409, 422, 429, what=REFUSALS))
async def signup(body: Credentials, request: Request):
    """Create an account and log in (cookies). With `keep`, the guest seat of that link becomes
    the account's."""
    people = request.app.state.people
    people.signups.refuse(client_key(request.scope))
    name = check_name(body.name)
    check_password(body.password, name)
    if body.keep is not None:  # refused before anything is made
        await check_keep(people, None, body.keep.game_id, body.keep.token)
    hashed = await people.hashing(people.passwords.hash, body.password)
    account_id = await people.db(create_account, name, hashed)
    if account_id is None:
        raise Refused(409, N_("the name {name} is taken: choose another"), name=repr(name))
    people.signups.hit(client_key(request.scope))
    token, csrf = await people.db(auth.open_login, account_id, people.settings.session_days)
    kept = None
    if body.keep is not None:
        kept = await keep_seat(people, {"id": account_id, "name": name}, body.keep.game_id, body.keep.token)
    return _logged_in(request, account_id, name, token, csrf, 201, {"kept": kept})


@router.post("/api/account/login", responses=refusals(401, 403, 404, 409, 422, 429, what=REFUSALS))
async def login(body: Credentials, request: Request):
    """Log in (cookies). A wrong password and an unknown name get the same answer (401)."""
    people = request.app.state.people
    address, key = client_key(request.scope), "name:" + name_key(body.name)[:NAME_MAX * 2]
    people.login_attempts.refuse(address)
    people.login_failures.refuse(key)
    people.login_attempts.hit(address)
    row = await people.db(find_account, body.name) if len(body.name) <= NAME_MAX * 2 else None
    ok = await people.hashing(people.passwords.check, row.password if row else None, body.password)
    if not ok or row is None:
        people.login_failures.hit(key)
        raise Refused(401, N_("wrong name or password"))
    people.login_failures.clear(key)
    if people.passwords.outdated(row.password):
        hashed = await people.hashing(people.passwords.hash, body.password)
        await people.db(set_password, row.id, hashed)
    account = {"id": row.id, "name": row.name}
    if body.keep is not None:
        await check_keep(people, account, body.keep.game_id, body.keep.token)
    token, csrf = await people.db(auth.open_login, row.id, people.settings.session_days)
    kept = None
    if body.keep is not None:
        kept = await keep_seat(people, account, body.keep.game_id, body.keep.token)
    response = _logged_in(request, row.id, row.name, token, csrf, 200, {"kept": kept})
    if setting(row, "language"):  # the account's language from now on in this browser
        i18n.set_cookie(response, setting(row, "language"))
    return response


@router.post("/api/account/logout", responses=refusals(401, 403, what=REFUSALS))
async def logout(request: Request):
    """End this login (its cookie stops working at once, wherever a copy of it is)."""
    people = request.app.state.people
    account = auth.account_of(request)
    await people.db(auth.close_login, account["key"])
    response = JSONResponse({"logged_out": True})
    auth.clear_login_cookies(response, auth.secure(request.url.scheme, people.settings.secure_cookies))
    return response


@router.post("/api/account/logout-everywhere", responses=refusals(401, 403, what=REFUSALS))
async def logout_everywhere(request: Request):
    """End every login of this account, on every device."""
    people = request.app.state.people
    account = auth.account_of(request)
    n = await people.db(auth.close_logins, account["id"])
    response = JSONResponse({"logged_out": n})
    auth.clear_login_cookies(response, auth.secure(request.url.scheme, people.settings.secure_cookies))
    return response


@router.get("/api/account", responses=refusals(401, what=REFUSALS))
async def me(request: Request):
    """Who is logged in (`{"account": null}` for nobody), with the count of games waiting on
    them (the badge) and of invitations. 401 for a login that ran out or ended (its cookies
    are cleared)."""
    people = request.app.state.people
    account = auth.account_of(request, required=False)
    if account is None:
        if (request.scope.get("state") or {}).get("login_problem"):
            auth.account_of(request)  # raises, saying why
        return {"account": None}
    n = await counts(people, account["id"])
    return {"account": {"id": account["id"], "name": account["name"], "created": account["created"]},
            "csrf": account["csrf"], **n}


async def _confirmed(people, account: dict, password: str, wrong: str):
    """The account's row if `password` is its password; Refused(401) with `wrong` if not (failures
    are limited per account at the rate of failed logins: guessing through here is no easier)."""
    key = f"id:{account['id']}"
    people.wrong_passwords.refuse(key)
    row = await people.db(account_row, account["id"])
    if not await people.hashing(people.passwords.check, row.password, password):
        people.wrong_passwords.hit(key)
        raise Refused(401, wrong)
    return row


@router.post("/api/account/password", responses=refusals(401, 403, 422, 429, what=REFUSALS))
async def change_password(body: PasswordChange, request: Request):
    """Change the password (the old one first); every other login of the account ends."""
    people = request.app.state.people
    account = auth.account_of(request)
    row = await _confirmed(people, account, body.old, N_("the old password is wrong"))
    check_password(body.new, row.name)
    hashed = await people.hashing(people.passwords.hash, body.new)
    await people.db(set_password, account["id"], hashed)
    ended = await people.db(auth.close_logins, account["id"], account["key"])
    return {"changed": True, "other_logins_ended": ended}


@router.delete("/api/account", responses=refusals(401, 403, 429, what=REFUSALS))
async def delete_account(body: Confirm, request: Request):
    """Delete the account (the password confirms it): its games stay, its seats named
    "former player"; its ratings and logins go."""
    people = request.app.state.people
    account = auth.account_of(request)
    await _confirmed(people, account, body.password, N_("the password is wrong: the account was not deleted"))
    await forget_account(people, account["id"])
    response = JSONResponse({"deleted": True})
    auth.clear_login_cookies(response, auth.secure(request.url.scheme, people.settings.secure_cookies))
    return response


@router.post("/api/account/seats", responses=refusals(401, 403, 404, 409, what=REFUSALS))
async def keep_a_seat(body: Keep, request: Request):
    """Keep a guest's seat (its link's token) in this account: the game goes into "My games"
    and the seat takes the account's name."""
    people = request.app.state.people
    account = auth.account_of(request)
    await check_keep(people, account, body.game_id, body.token)
    return await keep_seat(people, account, body.game_id, body.token)


async def forget_account(people, account_id: int) -> None:
    """Delete an account: it leaves the tables waiting for players; its seats are renamed
    "former player" (the games stay, with their results), its invitations withdrawn, its
    ratings gone; the account keeps a row with no name (account_store.tombstone)."""
    await leave_all(people, account_id)
    for game_id, seat, state in await people.db(seats_of_account, account_id):
        if state == "invited":
            await people.db(release, game_id, seat, account_id, "invited")
        try:
            await rename_seat(people, game_id, seat, FORMER_PLAYER if state == "playing" else f"Player {seat + 1}")
        except Refused as e:
            if e.status != 404:  # a game removed meanwhile has no seat to rename
                raise
    await people.db(forget_ratings, account_id)
    await people.db(tombstone, account_id)
