"""Database URLs and engines: which back end a URL names, and each back end's set-up.

- SQLite (the embedded default): ``sqlite:///path/to/games.db`` or a bare file path.
  Every connection is put in WAL journal mode with ``synchronous=FULL``, foreign keys
  on and a busy timeout (so a writer waits for another instead of failing). SQLAlchemy
  emits ``BEGIN`` itself (the ``sqlite3`` module's own transaction handling is turned
  off), and a connection marked with ``WRITE`` begins with ``BEGIN IMMEDIATE``: it takes
  the write lock before it reads, so two writers serialise and a check made inside the
  transaction still holds at commit; one marked with ``EACH_STATEMENT`` (reads of one
  statement each) begins none.
- PostgreSQL (for many games and several app processes): ``postgresql://...``,
  ``postgres://...`` or ``postgresql+psycopg://...``, always through psycopg 3.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from .base import StoreError

#: Execution option: the transaction will write (SQLite: ``BEGIN IMMEDIATE``).
WRITE = "kingmaker_write"

#: Execution option: every statement stands alone (SQLite: no ``BEGIN``; each statement
#: reads one consistent snapshot by itself). For reads that are one statement each.
EACH_STATEMENT = "kingmaker_each_statement"

#: Seconds a SQLite writer waits for the write lock before giving up.
SQLITE_BUSY_TIMEOUT = 60.0

#: Connections per process (threads beyond these wait for one).
SQLITE_POOL_SIZE = 4
POSTGRES_POOL_SIZE = 5

_POSTGRES_NAMES = {"postgresql", "postgres", "postgresql+psycopg"}
_SQLITE_NAMES = {"sqlite", "sqlite+pysqlite"}


def database_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``, normalised; ``StoreError`` says what is wrong.

    A string without ``://`` is the path of a SQLite file.
    """
    text = url.strip()
    if not text:
        raise StoreError(
            "no database given: use sqlite:///path/to/games.db, a file path, or postgresql://..."
        )
    if "://" not in text:
        return _sqlite_url(URL.create("sqlite", database=str(Path(text).expanduser())))
    try:
        parsed = make_url(text)
    except ArgumentError:
        raise StoreError(f"not a database URL: {text!r}") from None
    name = parsed.drivername
    if name in _SQLITE_NAMES:
        return _sqlite_url(parsed.set(drivername="sqlite"))
    if name in _POSTGRES_NAMES:
        if not parsed.database:
            raise StoreError(
                f"no database name in {describe(parsed)}: use postgresql://user@host:port/dbname"
            )
        return parsed.set(drivername="postgresql+psycopg")
    backend, _, driver = name.partition("+")
    if backend in ("postgresql", "postgres"):
        raise StoreError(f"PostgreSQL driver {driver!r} is not supported: use postgresql:// (psycopg 3)")
    if backend == "sqlite":
        raise StoreError(f"SQLite driver {driver!r} is not supported: use sqlite:///path/to/games.db")
    raise StoreError(
        f"unsupported database {backend!r} in {describe(parsed)}: use sqlite:///path or postgresql://..."
    )


def _sqlite_url(url: URL) -> URL:
    db = url.database
    if not db or db == ":memory:" or url.query.get("mode") == "memory" or db.startswith("file:"):
        raise StoreError(
            "a SQLite store needs a file path (sqlite:///path/to/games.db); use MemoryStore for memory"
        )
    if "timeout" in url.query:
        try:
            ok = float(str(url.query["timeout"])) > 0
        except ValueError:
            ok = False
        if not ok:
            raise StoreError(f"timeout={url.query['timeout']!r} in the SQLite URL is not a number of seconds")
    path = Path(db).expanduser()
    if not path.parent.is_dir():
        raise StoreError(
            f"cannot create SQLite database {str(path)!r}: directory {str(path.parent)!r} does not exist"
        )
    if path.is_dir():
        raise StoreError(f"cannot open SQLite database {str(path)!r}: it is a directory")
    return url.set(database=str(path))


def describe(url: URL) -> str:
    """The URL to show in messages (no password)."""
    return url.render_as_string(hide_password=True)


def make_engine(url: URL, pool_size: int | None = None) -> sa.Engine:
    """An engine with the back end's set-up (``url`` from ``database_url``).

    ``pool_size``: connections kept open (and at most open) per process; threads beyond
    it wait for a free one.
    """
    if pool_size is not None and pool_size < 1:
        raise StoreError(f"pool_size must be 1 or more, not {pool_size}")
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url, pool_size)
    return _postgres_engine(url, pool_size)


def _sqlite_engine(url: URL, pool_size: int | None) -> sa.Engine:
    connect_args: dict[str, Any] = {"check_same_thread": False}
    timeout = float(str(url.query["timeout"])) if "timeout" in url.query else SQLITE_BUSY_TIMEOUT
    connect_args["timeout"] = timeout
    engine = sa.create_engine(
        url,
        connect_args=connect_args,
        pool_size=pool_size or SQLITE_POOL_SIZE,
        max_overflow=0,  # more threads than connections wait for one, rather than churn connections
        pool_timeout=max(timeout, 30.0),
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The sqlite3 module's own BEGIN handling is off: SQLAlchemy emits BEGIN (below).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            _use_wal(cursor, url.database, timeout)
            cursor.execute("PRAGMA synchronous = FULL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        options = conn.get_execution_options()
        if options.get(WRITE):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif not options.get(EACH_STATEMENT):
            conn.exec_driver_sql("BEGIN")

    return engine


def _use_wal(cursor: Any, database: str | None, timeout: float) -> None:
    """Put the database in WAL mode. Switching a new file's journal needs it to itself
    for a moment: when several processes open the same new file at once, the switch may
    answer the old mode (or "locked") to all but one; it is tried again until it holds,
    for at most the busy timeout."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            mode = str(cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) and "busy" not in str(e):
                raise
            mode = "locked"
        if mode == "wal":
            return
        if time.monotonic() > deadline:
            raise StoreError(f"SQLite database {database!r} cannot use WAL journal mode (got {mode!r})")
        time.sleep(0.02)


def _postgres_engine(url: URL, pool_size: int | None) -> sa.Engine:
    connect_args: dict[str, Any] = {}
    if "application_name" not in url.query:
        connect_args["application_name"] = "kingmaker"
    return sa.create_engine(
        url,
        connect_args=connect_args,
        pool_size=pool_size or POSTGRES_POOL_SIZE,
        max_overflow=0,  # a new server connection is costly: more threads wait for a pooled one
        pool_timeout=60,
    )
