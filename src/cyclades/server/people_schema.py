"""The tables of the people who play, beside the games' tables (store.py), on the same
database (SQLite or PostgreSQL): accounts, their logins, the seats they hold, ratings,
play-now tables and the table talk. Made, and brought up to date, when the server starts.

`create_tables` makes the missing tables and adds the columns a later version defined to
tables an earlier one made, so an existing database is brought up to date in place: a column
added later must be nullable or have a server default (rows that exist get it). No foreign key
points at `games`: the housekeeping removes abandoned games, and the rows that named them are
then simply not found by the joins that read them.

Room to grow: `accounts.settings` (JSON) keeps what a player chooses (notification preferences,
an e-mail address); a game's speed is in its `settings` (store.games) and in its play-now
table's `speed`, where clocks may hang their time bank.
"""
from __future__ import annotations

import time

import sqlalchemy as sa

metadata = sa.MetaData()

accounts = sa.Table(
    "accounts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(64), nullable=True),       # None once deleted
    sa.Column("name_key", sa.String(64), nullable=True, unique=True),  # for uniqueness: casefolded
    sa.Column("password", sa.String(255), nullable=True),  # Argon2id hash (PHC string)
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("deleted", sa.Float, nullable=True),
    # JSON: what the player chose (notification preferences and the like)
    sa.Column("settings", sa.Text, nullable=False, server_default=sa.text("'{}'")),
)

# A login: the SHA-256 of its cookie's token (auth.py), never the token itself.
logins = sa.Table(
    "logins", metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("seen", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

# Which account holds (or is invited to) which seat of which game (holders.py).
seat_holders = sa.Table(
    "seat_holders", metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("state", sa.String(16), nullable=False),     # playing | invited
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),        # when the game ended (ratings.settle)
    sa.Column("place", sa.Integer, nullable=True),         # 0: first; seats that tie share it
    sa.Column("won", sa.Boolean, nullable=True),
    sa.Index("seat_holders_account", "account_id", "finished"),
)

# A rating per player (or bot level) per edition, and how each rated game moved it (ratings.py).
ratings = sa.Table(
    "ratings", metadata,
    sa.Column("subject", sa.String(64), primary_key=True),    # "account:12" or "bot:casual"
    sa.Column("edition", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rating_history = sa.Table(
    "rating_history", metadata,
    sa.Column("subject", sa.String(64), primary_key=True),
    sa.Column("edition", sa.String(16), primary_key=True),
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("before", sa.Integer, nullable=False),   # the shown rating before the game
    sa.Column("after", sa.Integer, nullable=False),    # and after it
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Index("rating_history_subject", "subject", "edition", "at"),
)

# Play-now tables waiting for players, then pointing at their game (playnow.py).
play_tables = sa.Table(
    "play_tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),        # its last change
    sa.Column("kind", sa.String(160), nullable=False),     # what joins it: playnow.kind_of()
    sa.Column("options", sa.Text, nullable=False),         # JSON: the game's setup options
    sa.Column("speed", sa.String(16), nullable=False),     # live | turn-based
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("bots_rated", sa.Boolean, nullable=False),
    sa.Column("bot", sa.String(32), nullable=False),       # the level of the bots that fill it
    sa.Column("fill_at", sa.Float, nullable=True),         # when bots fill it; None: never
    sa.Column("creator", sa.Integer, nullable=False),      # the account that may fill it now
    sa.Column("seats", sa.Text, nullable=False),           # JSON: [{"account", "name", "at"}]
    sa.Column("status", sa.String(16), nullable=False),    # waiting | starting | started | closed
    sa.Column("game_id", sa.String(64), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),      # compare-and-set of every change
    sa.Index("play_tables_waiting", "status", "kind"),
)

# The table talk (chat.py).
chat = sa.Table(
    "chat", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(64), nullable=False),
    sa.Column("line", sa.String(16), nullable=False),        # players | spectators
    sa.Column("seat", sa.Integer, nullable=True),            # a player's seat
    sa.Column("account_id", sa.Integer, nullable=True),      # a spectator's account
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("step", sa.Integer, nullable=False),           # decisions made when it was said
    sa.Index("chat_game", "game_id", "id"),
)

chat_mutes = sa.Table(
    "chat_mutes", metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("muter", sa.String(32), primary_key=True),     # "seat:2" or "account:7"
    sa.Column("muted", sa.String(32), primary_key=True),
)


def create_tables(engine, tries: int = 5) -> None:
    """Make the missing tables and add missing columns. Several server processes may start at
    once on a new database: whoever loses the race to create a table finds it made."""
    for attempt in range(tries):
        try:
            metadata.create_all(engine)
            add_missing_columns(engine)
            return
        except sa.exc.DBAPIError:
            if attempt == tries - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


def add_missing_columns(engine) -> list:
    """ALTER TABLE ... ADD COLUMN for every column of these tables that an existing table
    lacks; the columns added, as "table.column"."""
    inspector = sa.inspect(engine)
    added = []
    for table in metadata.sorted_tables:
        have = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in have:
                continue
            kind = column.type.compile(dialect=engine.dialect)
            default = ""
            if column.server_default is not None:  # sa.text(...): its SQL as written
                default = f" DEFAULT {column.server_default.arg.text}"
            with engine.begin() as c:
                c.execute(sa.text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}{default}"))
            added.append(f"{table.name}.{column.name}")
    return added
