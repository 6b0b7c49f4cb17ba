"""Accounts in the database: names, passwords, rows.

A name is 3 to 24 letters or digits (of any script) with spaces and - _ . ' between them: no
markup, nothing that reads as a bot's or a default seat's name; two names that differ only in
case, width or spacing are one name (`name_key`). Passwords are hashed with Argon2id
(argon2-cffi; OWASP's parameters: 19 MiB, 2 passes), a hash that its `check` takes as long to
refuse for an unknown name as for a wrong password. A deleted account keeps its row with no
name, no password and no settings (`tombstone`): its games name it "former player".
"""
from __future__ import annotations

import json
import re
import time
import unicodedata

import sqlalchemy as sa

from ..content.i18n import N_
from .errors import Refused
from .people_schema import accounts, logins

FORMER_PLAYER = "former player"
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
# Letters and digits of any script, and a few marks between them: no markup, no lookalike
# punctuation, nothing that could be taken for a bot's or a default seat's name.
_NAME = re.compile(r"[^\W_](?:[\w .'-]*[^\W_])?")
_RESERVED = re.compile(r"(former player|player \d+|.* bot( \d+)?|admin(istrator)?|moderator|system|cyclades)")



# --- names and passwords ------------------------------------------------------------------------

def name_key(name: str) -> str:
    """Two names are the same name if they differ only in case, width or spacing."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: str) -> str:
    """The name as kept (trimmed, NFC), or Refused(422) saying what a name may be."""
    name = " ".join(unicodedata.normalize("NFC", name or "").split())
    if name and not _NAME.fullmatch(name):
        raise Refused(422, N_("a name may use letters, digits, spaces and the marks - _ . ' between "
                           "them (no other signs, no markup)"))
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Refused(422, N_("a name has {least} to {most} characters ({given} given)"),
            least=NAME_MIN, most=NAME_MAX, given=len(name))
    if _RESERVED.fullmatch(name_key(name)):
        raise Refused(422, N_("the name {name} is kept for the site: choose another"), name=repr(name))
    return name


def check_password(password: str, name: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused(422, N_("a password has {least} to {most} characters ({given} given)"),
            least=PASSWORD_MIN, most=PASSWORD_MAX, given=len(password))
    if name_key(password) == name_key(name):
        raise Refused(422, N_("the password must not be the name"))


class Passwords:
    """Argon2id hashing; `check` of an unknown name runs against a stand-in hash, so that it
    takes as long as a wrong password."""

    def __init__(self):
        from argon2 import PasswordHasher
        self.hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
        self._stand_in = None

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def check(self, stored: str | None, password: str) -> bool:
        from argon2.exceptions import InvalidHashError, VerificationError
        if stored is None:
            if self._stand_in is None:
                self._stand_in = self.hasher.hash("a stand-in password")
            stored, password = self._stand_in, password + "\0no such account"
        try:
            return self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def outdated(self, stored: str) -> bool:
        return self.hasher.check_needs_rehash(stored)


# --- the database side -------------------------------------------------------------------------------

def create_account(engine, name: str, password_hash: str) -> int | None:
    """The new account's id, or None if the name is taken."""
    try:
        with engine.begin() as c:
            r = c.execute(accounts.insert().values(name=name, name_key=name_key(name),
                                                   password=password_hash, created=time.time(),
                                                   settings="{}"))
            return r.inserted_primary_key[0]
    except sa.exc.IntegrityError:
        return None


def find_account(engine, name: str):
    """The live account of a name (any case), or None."""
    with engine.connect() as c:
        return c.execute(sa.select(accounts).where(accounts.c.name_key == name_key(name),
                                                   accounts.c.deleted.is_(None))).first()


def account_row(engine, account_id: int):
    with engine.connect() as c:
        return c.execute(sa.select(accounts).where(accounts.c.id == account_id)).first()


def set_password(engine, account_id: int, password_hash: str) -> None:
    with engine.begin() as c:
        c.execute(accounts.update().where(accounts.c.id == account_id).values(password=password_hash))


def set_setting(engine, account_id: int, key: str, value) -> None:
    """One of the account's settings (its language, ...), the others kept."""
    with engine.begin() as c:
        row = c.execute(sa.select(accounts.c.settings).where(accounts.c.id == account_id)).first()
        settings = json.loads(row.settings or "{}") if row else {}
        settings[key] = value
        c.execute(accounts.update().where(accounts.c.id == account_id).values(settings=json.dumps(settings)))


def setting(row, key: str, default=None):
    """A setting of an account's row."""
    try:
        return json.loads(row.settings or "{}").get(key, default)
    except (ValueError, AttributeError):
        return default


def tombstone(engine, account_id: int) -> None:
    """The account keeps its row (its games name it) without a name, a password or settings."""
    with engine.begin() as c:
        c.execute(accounts.update().where(accounts.c.id == account_id)
                  .values(name=None, name_key=None, password=None, settings="{}", deleted=time.time()))
        c.execute(logins.delete().where(logins.c.account_id == account_id))


def display_name(name: str | None) -> str:
    return name if name else FORMER_PLAYER
