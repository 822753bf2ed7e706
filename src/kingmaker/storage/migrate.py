"""Schema migrations: bring a database to the schema this program expects (Alembic).

``upgrade(engine)`` runs every pending migration in one transaction, holding a lock
so two processes opening the same new database do not both create the tables:
SQLite's write lock (``BEGIN IMMEDIATE``), or on PostgreSQL a transaction-level
advisory lock per schema. DDL is transactional on both, so a failed migration leaves
the database as it was.

The migration scripts live in ``migrations/versions``; the Alembic command line works
too (see ``alembic.ini``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from .base import StoreError
from .engines import WRITE

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """An Alembic configuration for the packaged migrations, running on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest schema revision this program knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: sa.Engine) -> str | None:
    """The database's schema revision (None: never migrated)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


@contextmanager
def migration_transaction(conn: sa.Connection) -> Iterator[None]:
    """The one transaction the migrations run in, with the back end's migration lock."""
    conn.execution_options(**{WRITE: True})  # SQLite: BEGIN IMMEDIATE, the write lock
    with conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(
                sa.text(
                    "SELECT pg_advisory_xact_lock(hashtext('kingmaker-migrations:' || coalesce(current_schema(), '')))"
                )
            )
        yield


def upgrade(engine: sa.Engine, revision: str = "head") -> None:
    """Migrate the database to ``revision`` (by default the newest); a no-op when it is there."""
    with engine.connect() as conn, migration_transaction(conn):
        try:
            command.upgrade(alembic_config(conn), revision)
        except CommandError as e:
            found = MigrationContext.configure(conn).get_current_revision()
            raise StoreError(
                f"cannot migrate the database (at schema revision {found!r}) to {revision!r}: {e}"
                " (was it created by a newer version of kingmaker?)"
            ) from None
