"""A fresh PostgreSQL database for a test, dropped afterwards (the `db_url` fixture in conftest.py
uses it, and the tests that need a second database of their own)."""
import contextlib
import secrets

import pytest
import sqlalchemy as sa


@contextlib.contextmanager
def pg_database(base: str):
    """A new, empty PostgreSQL database on the server of `base` (a SQLAlchemy URL), dropped
    afterwards with whatever still connects to it."""
    pytest.importorskip("psycopg")
    name = f"cyclades_t_{secrets.token_hex(5)}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.exec_driver_sql(f"CREATE DATABASE {name}")
    except sa.exc.OperationalError as e:
        admin.dispose()
        pytest.skip(f"PostgreSQL at CYCLADES_TEST_PG is not reachable: {e.orig}")
    try:
        yield sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()
