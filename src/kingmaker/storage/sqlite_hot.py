"""SQLite's hot statements on the bare ``sqlite3`` connection: a game's head, what an
idempotency key recorded, and an append of entries (with its key), the statements of
every order. ``SqlStore`` runs them here instead of through SQLAlchemy, whose statement
machinery costs ten times the statement itself (a one-row read: 0.05 ms against
0.005 ms); everything else stays on SQLAlchemy.

Each thread runs them on a connection of its own, opened by the engine as every other
(``engines._sqlite_engine``: WAL, ``synchronous = FULL``, foreign keys, the busy timeout,
the ``sqlite3`` module's own transaction handling off) and then detached from its pool
and kept for the thread: a checkout and a checkin of the pool cost more than a head read
(0.05 ms of CPU each way, twice per order). A read of one statement stands alone and an
append is one ``BEGIN IMMEDIATE`` transaction, as on SQLAlchemy; no transaction stays
open between calls. Each statement is a constant text: ``sqlite3`` keeps it prepared per
connection (its statement cache) and runs it again with new parameters.

The rows written are those SQLAlchemy writes: JSON columns as ``json.dumps`` text (the
SQLite dialect's serializer), a key's ``None`` response as SQL NULL.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from kingmaker.log.envelope import SCHEMA_VERSION, Envelope, envelope_to_data

from .base import AppendResult, ConcurrencyError, StoreError, UnknownGame

_HEAD = "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE events.game_id = games.id) FROM games WHERE games.id = ?"
_HEAD_AND_KEY = (
    "SELECT (SELECT coalesce(max(seq), 0) FROM events WHERE events.game_id = games.id),"
    " idempotency.first_seq, idempotency.last_seq, idempotency.response"
    " FROM games LEFT OUTER JOIN idempotency"
    " ON idempotency.game_id = games.id AND idempotency.key = ?"
    " WHERE games.id = ?"
)
_INSERT_EVENT = (
    "INSERT INTO events (game_id, seq, round, turn, actor, rule, kind, v, command, recorded_at, payload)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_KEY = "INSERT INTO idempotency (game_id, key, first_seq, last_seq, response) VALUES (?, ?, ?, ?, ?)"

EventRow = tuple[str, int, int, str, str, str | None, str, int, str | None, str, str]


class Refused(Exception):
    """The database refused the append's rows (an integrity error): nothing was
    written; the caller finds out why on its general path."""


def event_row(game_id: str, env: Envelope) -> EventRow:
    """The ``events`` row of ``env``, its payload as JSON text."""
    payload = envelope_to_data(env)
    event = payload["event"]
    kind = event.get("kind") if isinstance(event, dict) else None
    return (
        game_id,
        env.seq,
        env.round,
        env.turn,
        env.actor,
        env.rule,
        str(kind or type(env.event).__name__),
        SCHEMA_VERSION,
        env.command,
        env.recorded_at,
        json.dumps(payload),
    )


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class HotStatements:
    """The hot statements of one SQLite ``engine``; ``where`` names the database in
    messages (as ``SqlStore`` does)."""

    def __init__(self, engine: sa.Engine, where: str):
        self.engine = engine
        self.where = where
        self._mine = threading.local()  # this thread's connection
        # every thread's (its thread, the detached pool entry): a thread's is closed when
        # another opens one after it ended (worker threads come and go), the rest by ``close``
        self._opened: list[tuple[threading.Thread, Any]] = []
        self._guard = threading.Lock()
        self._closed = False

    def _own(self) -> sqlite3.Connection:
        """This thread's connection: opened by the engine (its set-up), then detached from
        the pool, which stays free for every other statement."""
        if self._closed:
            raise StoreError(f"{self.where} is closed")
        conn: sqlite3.Connection | None = getattr(self._mine, "conn", None)
        if conn is not None:
            return conn
        with self._guard:
            if self._closed:
                raise StoreError(f"{self.where} is closed")
            ended = [pooled for thread, pooled in self._opened if not thread.is_alive()]
            self._opened = [(t, pooled) for t, pooled in self._opened if t.is_alive()]
            pooled = self.engine.raw_connection()
            conn = pooled.driver_connection
            assert isinstance(conn, sqlite3.Connection)
            pooled.detach()  # closing it now closes the connection itself
            self._opened.append((threading.current_thread(), pooled))
        for gone in ended:  # no thread can use these any more
            gone.close()
        self._mine.conn = conn
        return conn

    def close(self) -> None:
        """Close every thread's connection (the store is closing)."""
        with self._guard:
            self._closed = True
            opened, self._opened = self._opened, []
        for _, pooled in opened:
            pooled.close()

    @contextmanager
    def _connection(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        """This thread's connection, no transaction left open on it; database failures
        reported as ``StoreError`` (integrity errors as ``Refused``)."""
        what = "writing" if write else "reading"
        try:
            conn = self._own()
        except (sqlite3.Error, sa.exc.DBAPIError) as e:
            raise StoreError(f"{what} {self.where}: {_first_line(e)}") from e
        try:
            yield conn
        except sqlite3.IntegrityError as e:
            raise Refused(_first_line(e)) from e
        except sqlite3.Error as e:
            raise StoreError(f"{what} {self.where}: {_first_line(e)}") from e
        finally:
            if conn.in_transaction:
                conn.rollback()

    def head(self, game_id: str) -> int:
        with self._connection(write=False) as conn:
            row = conn.execute(_HEAD, (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return int(row[0])

    def first_row(self, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
        """The first row of one read statement of constant text (None: no row)."""
        with self._connection(write=False) as conn:
            row = conn.execute(sql, params).fetchone()
        return None if row is None else tuple(row)

    def recorded(self, game_id: str, key: str) -> AppendResult | None:
        with self._connection(write=False) as conn:
            return _head_and_key(conn, game_id, key)[1]

    def append(
        self,
        game_id: str,
        expected_seq: int,
        rows: Sequence[EventRow],
        key: str | None,
        response: dict[str, Any] | None,
    ) -> AppendResult:
        """Append ``rows`` after ``expected_seq`` with idempotency ``key`` and its
        ``response``, in one ``BEGIN IMMEDIATE`` transaction: a known key replays its
        first result, a moved head is a ``ConcurrencyError``, and either writes nothing."""
        result = AppendResult(expected_seq + 1, expected_seq + len(rows), response)
        saved = None if key is None or response is None else json.dumps(response)
        with self._connection(write=True) as conn:
            conn.execute("BEGIN IMMEDIATE")
            head, seen = _head_and_key(conn, game_id, key)
            if seen is not None:
                conn.execute("COMMIT")
                return seen
            if head != expected_seq:
                raise ConcurrencyError(game_id, expected_seq, head)
            if rows:
                conn.executemany(_INSERT_EVENT, rows)
            if key is not None:
                conn.execute(_INSERT_KEY, (game_id, key, result.first_seq, result.last_seq, saved))
            conn.execute("COMMIT")
        return result


def _head_and_key(conn: sqlite3.Connection, game_id: str, key: str | None) -> tuple[int, AppendResult | None]:
    """The game's head and what its idempotency ``key`` recorded, in one statement."""
    if key is None:
        row = conn.execute(_HEAD, (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return int(row[0]), None
    found = conn.execute(_HEAD_AND_KEY, (key, game_id)).fetchone()
    if found is None:
        raise UnknownGame(game_id)
    head, first, last, response = found
    seen = None
    if first is not None:
        seen = AppendResult(first, last, None if response is None else json.loads(response), replayed=True)
    return int(head), seen
