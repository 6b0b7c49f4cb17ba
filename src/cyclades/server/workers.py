"""`cyclades serve --workers N`: N uvicorn worker processes accept on one port.

The parent checks the database (SQLite only in WAL mode on a local disk: several processes
then write one file safely) and creates its tables once, then hands the app's settings to the
workers through the environment: each worker builds its own app (`app_from_env`, an import
string, as uvicorn's workers need). The workers share nothing but the database (server/sync.py
keeps them in step).
"""
from __future__ import annotations

import dataclasses
import json
import os

ENV = "CYCLADES_SERVE_APP"
APP = "cyclades.server.workers:app_from_env"


def check_database(db_url: str) -> str | None:
    """Why several processes cannot share this database (None: they can). Creates the tables."""
    from sqlalchemy.engine import make_url

    from .store import Store
    url = make_url(db_url)  # a URL store.database_problem has passed (no in-memory database)
    store = Store(db_url)
    try:
        if store.engine.dialect.name == "sqlite":
            with store.engine.connect() as c:
                mode = c.exec_driver_sql("PRAGMA journal_mode").scalar()
            if str(mode).lower() != "wal":
                return (f"SQLite could not use WAL mode on {url.database} (journal mode {mode!r}; "
                        f"a network file system?): several processes would not share it safely. "
                        f"Use one process (no --workers), a file on a local disk, or PostgreSQL")
    finally:
        store.close()
    return None


def prepare(db_url: str, bot_delay: float, limits, fail) -> str:
    """Check the database, pass the settings on to the workers; the app's import string."""
    why = check_database(db_url)
    if why:
        fail(f"--workers: {why}")
    os.environ[ENV] = json.dumps({"db_url": db_url, "bot_delay": bot_delay,
                                  "limits": dataclasses.asdict(limits)})
    return APP


def app_from_env():
    """The app of one worker, from the settings `prepare` left in the environment."""
    from .app import create_app
    from .security import ServerLimits
    d = json.loads(os.environ[ENV])
    lim = d["limits"]
    lim["allowed_origins"] = tuple(lim.get("allowed_origins") or ())
    if lim.get("allowed_hosts") is not None:
        lim["allowed_hosts"] = tuple(lim["allowed_hosts"])
    return create_app(d["db_url"], bot_delay=d["bot_delay"], limits=ServerLimits(**lim))
