"""Alembic environment for kingmaker's storage.

Two ways in:

- from the program (``kingmaker.storage.migrate.upgrade``): the connection to migrate
  arrives in ``config.attributes["connection"]``, already inside the migration
  transaction (with its lock); the migrations run in it and the caller commits;
- from the ``alembic`` command line: the URL comes from ``-x url=...`` or the
  ``KINGMAKER_DB`` environment variable, and the engine gets the same set-up
  (SQLite pragmas, psycopg driver) and the same lock as in the program.
"""

from __future__ import annotations

import os
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context

from kingmaker.storage.engines import database_url, make_engine
from kingmaker.storage.migrate import migration_transaction
from kingmaker.storage.schema import metadata

config = context.config


def _url() -> sa.URL:
    given = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("KINGMAKER_DB")
    if not given:
        raise SystemExit(
            "which database? pass -x url=sqlite:///games.db (or postgresql://...), or set KINGMAKER_DB"
        )
    return database_url(given)


def _run(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite ALTERs by copying the table
    )
    with context.begin_transaction():
        context.run_migrations()


def run_offline() -> None:
    """``alembic upgrade --sql``: print the SQL instead of running it."""
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    engine = make_engine(_url())
    try:
        with engine.connect() as connection, migration_transaction(connection):
            _run(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
