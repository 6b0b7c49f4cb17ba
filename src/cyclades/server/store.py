"""Storage of games: one interface over SQLAlchemy Core (SQLite by default,
PostgreSQL by URL).

A game is its setup (the engine options of `game.record()` and the seats) and
the decisions applied to it, one row each with its index. The primary key
(game_id, idx) means a decision is never stored twice; `add_decision` commits
before it returns, so the server acknowledges only what is on disk. The
`games` row also keeps a summary (status, version, cycle, to_move) for the
lobby, updated in the same transaction as the decision, with the process that stored it
(`driver`, which plays the game's bots), and on PostgreSQL a NOTIFY to the other server
processes (server/sync.py). Table `servers` lists the processes using the database.
"""
from __future__ import annotations

import json
import os
import time

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ..click_types import folder_problem

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("options", sa.Text, nullable=False),   # JSON: game.record()["options"]
    sa.Column("seats", sa.Text, nullable=False),     # JSON: [{"kind", "name", "token", "joined"}]
    sa.Column("settings", sa.Text, nullable=False, default="{}"),  # JSON: server-side, e.g. bot_delay
    sa.Column("status", sa.String(16), nullable=False),  # waiting | playing | over
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("cycle", sa.Integer, nullable=False, default=0),
    sa.Column("to_move", sa.Integer, nullable=True),
    sa.Column("updated", sa.Float, nullable=False),
    # The server process that made the last change (server/sync.py): it plays the game's bots.
    # A process that finds the driver gone (stopped, killed) adopts the game.
    sa.Column("driver", sa.String(128), nullable=True),
    # How many times a decision was taken back (server/sessions.py, Session.take_back): a
    # process whose count differs rebuilds the game from the stored decisions (server/sync.py).
    sa.Column("undos", sa.Integer, nullable=False, default=0, server_default="0"),
    # A timed game's clocks (server/clocks.py: JSON, opaque here), stored with each decision;
    # `deadline`: when the seat to move runs out of time (None: nobody's clock runs), and
    # `clock_lease`: until when a process that claimed the timeout is deciding it.
    sa.Column("clocks", sa.Text, nullable=True),
    sa.Column("deadline", sa.Float, nullable=True, index=True),
    sa.Column("clock_lease", sa.Float, nullable=True),
)

decisions = sa.Table(
    "decisions", metadata,
    sa.Column("game_id", sa.String(64), sa.ForeignKey("games.game_id"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.Text, nullable=False),    # JSON: Action.to_json()
    sa.Column("at", sa.Float, nullable=False),
)

# The server processes using this database (server/sync.py): each beats every second or so;
# one that stopped beating (or stopped) leaves its games to the others.
servers = sa.Table(
    "servers", metadata,
    sa.Column("owner", sa.String(128), primary_key=True),
    sa.Column("host", sa.String(255), nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("beat", sa.Float, nullable=False),
)

# When each seat's player was last seen at the table, by any process (server/presence.py).
presence = sa.Table(
    "presence", metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("seen", sa.Float, nullable=False),
)


# Built once: a decision is stored on every move, and building statements costs more
# than running them.
_INSERT_DECISION = decisions.insert()
# Stored only if no decision was taken back meanwhile (by another process): `undos` unchanged.
_UPDATE_SUMMARY = games.update().where(games.c.game_id == sa.bindparam("gid"),
                                       games.c.undos == sa.bindparam("known_undos")).values(
    status=sa.bindparam("status"), version=sa.bindparam("version"), cycle=sa.bindparam("cycle"),
    to_move=sa.bindparam("to_move"), updated=sa.bindparam("updated"), driver=sa.bindparam("driver"))
_UPDATE_SUMMARY_IF_SEATS = _UPDATE_SUMMARY.where(games.c.seats == sa.bindparam("seats_were"))
# A timed game's decision also moves its clocks (server/clocks.py), in the same row.
_CLOCK_VALUES = {"clocks": sa.bindparam("clocks"), "deadline": sa.bindparam("deadline"),
                 "clock_lease": None}
# Other server processes on the same PostgreSQL database hear of every change (server/sync.py).
NOTIFY_CHANNEL = "cyclades_games"
_NOTIFY = sa.text("SELECT pg_notify('" + NOTIFY_CHANNEL + "', :payload)")


class DuplicateDecision(Exception):
    """A decision with this index is already stored for this game (or decisions were taken
    back since the caller last read it)."""


class Changed(Exception):
    """The stored row is no longer the one the caller started from (its seats, or its
    settings): nothing was stored; read it again."""


SQLITE_BUSY_SECONDS = float(os.environ.get("CYCLADES_SQLITE_BUSY_SECONDS", "10"))
PG_CONNECT_SECONDS = 5


def default_db_url() -> str:
    """A SQLite file in the user's data directory."""
    from platformdirs import user_data_dir
    folder = user_data_dir("cyclades", appauthor=False)
    os.makedirs(folder, exist_ok=True)
    return "sqlite:///" + os.path.join(folder, "cyclades.db")


def database_problem(url: str) -> str | None:
    """Why the server cannot keep its games at `url` (None: it can), said before it starts: a
    string that is no database URL, a database other than SQLite or PostgreSQL, a driver that is
    not installed, a SQLite file in a folder that does not exist, a database that does not open
    (tried as the server would: its tables are created)."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except sa.exc.ArgumentError:
        return (f"{url!r} is not a database URL (for example sqlite:///cyclades.db or "
                f"postgresql+psycopg://user:password@host/db)")
    shown = parsed.render_as_string(hide_password=True)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        return f"the server keeps its games in SQLite or PostgreSQL, not {backend} ({shown})"
    if backend == "sqlite" and (parsed.database in (None, "", ":memory:") or "mode=memory" in url):
        return ("an in-memory SQLite database keeps nothing: the server's threads would each see "
                "their own, and every game would be lost at a stop. Use a file "
                "(--db sqlite:///path/cyclades.db) or PostgreSQL")
    if backend == "sqlite" and not parsed.query.get("uri"):
        why = folder_problem(os.path.dirname(os.path.abspath(parsed.database)))
        if why:
            return f"{why} (the folder of the SQLite file of {shown})"
    try:
        Store(url).close()
    except (ImportError, sa.exc.NoSuchModuleError) as e:
        return (f"the database driver of {shown} is not installed ({e}); PostgreSQL is reached with "
                f"postgresql+psycopg://... and the postgres extra (pip install -e '.[postgres]')")
    except sa.exc.DBAPIError as e:
        reason = str(e.orig or e).strip().splitlines()[0]
        return f"cannot open the database {shown}: {reason}"
    return None


class Store:
    """Games and their decisions. Methods are synchronous and thread-safe; the
    server calls them from one writer thread so that writes never contend."""

    def __init__(self, url: str | None = None):
        self.url = url or default_db_url()
        kwargs: dict = {}
        if self.url.startswith("sqlite"):
            # A locked database (another process writing) waits this long, then fails: the
            # server answers 503 and its bots try again (never an endless wait in its one
            # database thread).
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS}
        elif self.url.startswith("postgresql") and "connect_timeout" not in self.url:
            # A database that does not answer fails in seconds, not minutes. (After a database
            # restart the pool's connections are dead: the first that fails says so, and
            # SQLAlchemy replaces them all.)
            kwargs["connect_args"] = {"connect_timeout": PG_CONNECT_SECONDS}
        self.engine = sa.create_engine(self.url, future=True, **kwargs)
        if self.engine.dialect.name == "sqlite":
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)
        self.owner = None  # this server process, as server/sync.py names it (games.driver)
        self.pg = self.engine.dialect.name == "postgresql"
        create_schema(self.engine)

    def _notify(self, c, game_id: str, version: int = -1) -> None:
        """Tell the other server processes (PostgreSQL: delivered when the transaction commits)."""
        if self.pg:
            c.execute(_NOTIFY, {"payload": f"{game_id} {version} {self.owner or '-'}"})

    def close(self):
        self.engine.dispose()

    # --- writing ------------------------------------------------------------------

    def create_game(self, game_id: str, options: dict, seats: list, status: str, version: int,
                    to_move, settings: dict | None = None, claim: tuple | None = None,
                    clocks: dict | None = None, deadline: float | None = None) -> None:
        """Store a new game (`clocks`, `deadline`: a timed game's, server/clocks.py). `claim`
        (game_id, old settings, new settings): in the same transaction, another game's
        settings change from old to new (a rematch names itself there), or nothing is stored
        and Changed is raised (the settings had changed)."""
        now = time.time()
        with self.engine.begin() as c:
            if claim is not None:
                other, old, new = claim
                n = c.execute(games.update().where(games.c.game_id == other,
                                                   games.c.settings == json.dumps(old))
                              .values(settings=json.dumps(new), updated=now)).rowcount
                if not n:
                    raise Changed(f"the settings of game {other} changed")
                self._notify(c, other)
            c.execute(games.insert().values(
                game_id=game_id, created=now, options=json.dumps(options), seats=json.dumps(seats),
                settings=json.dumps(settings or {}), status=status, version=version, cycle=0,
                to_move=to_move, updated=now, driver=self.owner,
                clocks=json.dumps(clocks) if clocks is not None else None, deadline=deadline))

    def add_decision(self, game_id: str, idx: int, action: dict, summary: dict,
                     seats: list | None = None) -> float:
        """Store decision number `idx` (0-based) and the game's new summary, in one
        committed transaction. Raises DuplicateDecision if `idx` is already stored, or if
        decisions were taken back since the game was read (`summary["undos"]`, when given,
        differs from the stored count). `seats`: the seats the decision was checked against;
        if the stored ones differ (the host gave a seat away, through another process too),
        nothing is stored and Changed is raised. A timed game's summary carries its clocks
        and deadline (`summary["clocks"]`, server/clocks.py), stored in the same row."""
        now = time.time()
        values = {"gid": game_id, "status": summary["status"], "version": summary["version"],
                  "cycle": summary["cycle"], "to_move": summary["to_move"], "updated": now,
                  "driver": self.owner}
        if "clocks" in summary:
            values.update(clocks=json.dumps(summary["clocks"]), deadline=summary.get("deadline"))
        try:
            with self.engine.begin() as c:
                # The summary first: its row lock orders the decision after a seat change or
                # a `take_back` under way, and its condition sees the seats and count as stored.
                self._update_summary(c, game_id, {**values, "known_undos": summary.get("undos", 0)},
                                     seats)
                c.execute(_INSERT_DECISION, {"game_id": game_id, "idx": idx,
                                             "action": json.dumps(action), "at": now})
                self._notify(c, game_id, summary["version"])
        except IntegrityError as e:
            raise DuplicateDecision(f"decision {idx} of game {game_id} is already stored") from e
        return now

    def _update_summary(self, c, game_id: str, values: dict, seats: list | None,
                        undos: int | None = None) -> None:
        """The game's summary, stored only if its count of undos is still `known_undos` (else
        DuplicateDecision) and, when `seats` are given, its seats still those (else Changed).
        `undos`: a new count (a decision taken back)."""
        if undos is not None:
            values = {**values, "new_undos": undos}
        stmt = _UPDATE_SUMMARY if seats is None else _UPDATE_SUMMARY_IF_SEATS
        if "clocks" in values:
            stmt = stmt.values(**_CLOCK_VALUES)
        if undos is not None:
            stmt = stmt.values(undos=sa.bindparam("new_undos"))
        if seats is not None:
            values = {**values, "seats_were": json.dumps(seats)}
        if c.execute(stmt, values).rowcount:
            return
        row = c.execute(sa.select(games.c.undos).where(games.c.game_id == game_id)).first()
        if row is not None and row.undos != values["known_undos"]:
            raise DuplicateDecision(f"decisions of game {game_id} were taken back meanwhile")
        raise Changed(f"the seats of game {game_id} changed")

    def take_back(self, game_id: str, idx: int, summary: dict, seats: list | None = None) -> int:
        """Forget decisions `idx` and after (taken back: the record keeps only what stood) and
        store the summary of the game without them, if no decision was taken back meanwhile
        (`summary["undos"]`: the count the caller knows) and, when `seats` are given, the
        stored seats are still those. The new count; DuplicateDecision if another process
        changed the count first, Changed if the seats changed."""
        now = time.time()
        with self.engine.begin() as c:
            self._update_summary(c, game_id, {
                "gid": game_id, "status": summary["status"], "version": summary["version"],
                "cycle": summary["cycle"], "to_move": summary["to_move"], "updated": now,
                "driver": self.owner, "known_undos": summary["undos"]}, seats, undos=summary["undos"] + 1)
            c.execute(decisions.delete().where(decisions.c.game_id == game_id, decisions.c.idx >= idx))
            self._notify(c, game_id)  # -1: every process catches up (its version may be higher)
        return summary["undos"] + 1

    def update_game(self, game_id: str, **values) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        now = time.time()
        with self.engine.begin() as c:
            c.execute(games.update().where(games.c.game_id == game_id)
                      .values(updated=now, **values))
            self._notify(c, game_id)
        return now

    def replace_seats(self, game_id: str, old: list, new: list, status: str) -> bool:
        """Store `new` seats if the stored ones are still `old` (another server process may
        have changed them meanwhile): True if stored, False if the stored seats differ."""
        now = time.time()
        with self.engine.begin() as c:
            n = c.execute(games.update().where(games.c.game_id == game_id,
                                               games.c.seats == json.dumps(old))
                          .values(seats=json.dumps(new), status=status, updated=now)).rowcount
            if n:
                self._notify(c, game_id)
        return bool(n)

    # --- clocks (server/clocks.py) ---------------------------------------------------------

    def claim_due(self, now: float, lease: float, limit: int = 100) -> list:
        """The (game_id, version, lease) of games whose clock ran out by `now`, each claimed for
        `lease` seconds by this call alone: an atomic UPDATE ... WHERE on the lease (PostgreSQL:
        the rows picked with FOR UPDATE SKIP LOCKED), so that with several server processes a
        timeout is handled once. A claim not followed by a decision (its process stopped)
        lapses and the next sweep, anywhere, claims it again."""
        due = (sa.select(games.c.game_id)
               .where(games.c.deadline <= now,
                      sa.or_(games.c.clock_lease.is_(None), games.c.clock_lease < now))
               .order_by(games.c.deadline).limit(limit))
        if self.pg:
            due = due.with_for_update(skip_locked=True)
        stmt = (games.update()
                .where(games.c.game_id.in_(due.scalar_subquery()), games.c.deadline <= now,
                       sa.or_(games.c.clock_lease.is_(None), games.c.clock_lease < now))
                .values(clock_lease=now + lease)
                .returning(games.c.game_id, games.c.version, games.c.clock_lease))
        with self.engine.begin() as c:
            return [(r.game_id, r.version, r.clock_lease) for r in c.execute(stmt)]

    def release_claims(self, claims: dict) -> None:
        """Give back timeouts claimed and not decided ({game_id: the lease claimed}: a process
        that stops), for the next sweep, anywhere, to claim at once."""
        with self.engine.begin() as c:
            for game_id, lease in claims.items():
                c.execute(games.update().where(games.c.game_id == game_id, games.c.clock_lease == lease)
                          .values(clock_lease=None))

    def set_clocks(self, game_id: str, version: int, clocks: dict, deadline: float | None) -> bool:
        """Store clocks set again without a decision (an open seat is still free, a seat
        went to a bot), if the game is still at `version`; whether it was."""
        with self.engine.begin() as c:
            n = c.execute(games.update().where(games.c.game_id == game_id, games.c.version == version)
                          .values(clocks=json.dumps(clocks), deadline=deadline, clock_lease=None)).rowcount
            if n:
                self._notify(c, game_id)  # -1: every process reads the clocks again
        return bool(n)

    def load_since(self, game_id: str, start: int) -> dict | None:
        """What changed since decision `start`: {"seats", "settings", "status", "version",
        "updated", "undos", "clocks", "actions": [decisions start, start + 1, ...]}, or None (no such
        game)."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(games.c.seats, games.c.settings, games.c.status,
                                      games.c.version, games.c.updated, games.c.undos, games.c.clocks)
                            .where(games.c.game_id == game_id)).first()
            if row is None:
                return None
            acts = c.execute(sa.select(decisions.c.idx, decisions.c.action)
                             .where(decisions.c.game_id == game_id, decisions.c.idx >= start)
                             .order_by(decisions.c.idx)).all()
        actions = []
        for i, (idx, text) in enumerate(acts):
            if idx != start + i:
                raise ValueError(f"game {game_id}: decision {start + i} is missing")
            actions.append(json.loads(text))
        return {"seats": json.loads(row.seats), "settings": json.loads(row.settings or "{}"),
                "status": row.status, "version": row.version, "updated": row.updated,
                "undos": row.undos or 0, "clocks": _json_or_none(row.clocks), "actions": actions}

    # --- reading ------------------------------------------------------------------

    def game_ids(self, unfinished_only=False) -> list:
        q = sa.select(games.c.game_id).order_by(games.c.created)
        if unfinished_only:
            q = q.where(games.c.status != "over")
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(q)]

    def load(self, game_id: str) -> dict | None:
        """{"game_id", "created", "options", "seats", "settings", "status", "undos", "clocks",
        "actions": [...]} or None."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(games).where(games.c.game_id == game_id)).mappings().first()
            if row is None:
                return None
            acts = c.execute(sa.select(decisions.c.idx, decisions.c.action)
                             .where(decisions.c.game_id == game_id)
                             .order_by(decisions.c.idx)).all()
        actions = []
        for i, (idx, text) in enumerate(acts):
            if idx != i:
                raise ValueError(f"game {game_id}: decision {i} is missing")
            actions.append(json.loads(text))
        return {"game_id": row["game_id"], "created": row["created"],
                "options": json.loads(row["options"]), "seats": json.loads(row["seats"]),
                "settings": json.loads(row["settings"] or "{}"),
                "status": row["status"], "undos": row["undos"] or 0,
                "clocks": _json_or_none(row["clocks"]), "actions": actions}

    def summaries(self, limit=100, status=None, lessons=True) -> list:
        """The most recent games first; `lessons=False` leaves out the tutorial's lessons."""
        q = sa.select(games).order_by(games.c.created.desc()).limit(limit)
        if status:
            q = q.where(games.c.status == status)
        if not lessons:  # settings are JSON written by json.dumps: a lesson's holds "tutorial": id
            q = q.where(sa.not_(games.c.settings.like('%"tutorial":%')))
        with self.engine.connect() as c:
            rows = c.execute(q).mappings().all()
        out = []
        for r in rows:
            d = dict(r)
            d["options"] = json.loads(d["options"])
            d["seats"] = json.loads(d["seats"])
            out.append(d)
        return out


def _json_or_none(text):
    return json.loads(text) if text else None


def create_schema(engine, tries: int = 5) -> None:
    """The tables, and the columns later versions added to existing ones (games.driver,
    games.undos, the clocks' columns).
    Several server processes may start at once on one new database: whoever loses the race
    to create a table finds it made."""
    for attempt in range(tries):
        try:
            metadata.create_all(engine)
            cols = {c["name"] for c in sa.inspect(engine).get_columns("games")}
            if "driver" not in cols:
                with engine.begin() as c:
                    c.execute(sa.text("ALTER TABLE games ADD COLUMN driver VARCHAR(128)"))
            if "undos" not in cols:
                with engine.begin() as c:
                    c.execute(sa.text("ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0"))
            for name, kind in (("clocks", "TEXT"), ("deadline", "FLOAT"), ("clock_lease", "FLOAT")):
                if name not in cols:
                    with engine.begin() as c:
                        c.execute(sa.text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
            return
        except sa.exc.DBAPIError:
            if attempt == tries - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


def _sqlite_pragmas(dbapi_conn, _record):
    # WAL with synchronous=NORMAL survives a killed process (not a power cut)
    # and commits without an fsync per decision.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
