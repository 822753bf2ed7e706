"""The web app's security state, kept in the game database so that every server process
shares it and a restart does not forget it (tables in ``schema.py``, migration 0002):

- counters (``web_counters``): failed GM logins per client and per account, their locks,
  and the clients that logged in; read and updated in one locked transaction;
- rate limits (``rate_limits``): how many requests a player token made in the current
  minute; a server process reserves a share of the limit at a time;
- GM sessions (``web_sessions``), stored by the SHA-256 of their random id;
- credentials (``web_credentials``): the scrypt hash of the GM password;
- and, read only, the seat a player's token hash opens (``seats``: every request of a
  player asks, so it is one constant statement).

This module holds the SQL only; the policies (backoff, limits, lifetimes) are the web
app's (``kingmaker.web.throttle``, ``ratelimit``, ``sessions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .base import StoreError
from .engines import EACH_STATEMENT, WRITE, describe
from .schema import rate_limits, web_counters, web_credentials, web_sessions
from .sqlite_hot import HotStatements
from .sqlstore import SqlStore, _database_errors


@dataclass(frozen=True)
class Counter:
    """A counter: ``count`` events, the last at ``touched_at``; locked until ``locked_until``
    (times in seconds since the epoch)."""

    key: str
    count: int = 0
    touched_at: float = 0.0
    locked_until: float = 0.0


@dataclass
class CounterUpdate:
    """The counters read in an ``update_counters`` transaction; ``put`` what they become."""

    rows: dict[str, Counter]
    changed: dict[str, Counter] = field(default_factory=dict)

    def get(self, key: str) -> Counter:
        return self.changed.get(key) or self.rows.get(key) or Counter(key)

    def put(self, counter: Counter) -> None:
        self.changed[counter.key] = counter


@dataclass(frozen=True)
class SessionRow:
    id_hash: str
    account: str
    csrf: str
    created_at: float
    seen_at: float
    expires_at: float


_SEAT_QMARK = "SELECT faction FROM seats WHERE token_hash = ? AND game_id = ?"
_SEAT_PYFORMAT = "SELECT faction FROM seats WHERE token_hash = %(h)s AND game_id = %(g)s"


def _counter(row: sa.Row[Any]) -> Counter:
    m = row._mapping  # not row.count: that is the tuple's method
    return Counter(m["key"], int(m["count"]), float(m["touched_at"]), float(m["locked_until"]))


class WebSecurityStore:
    """The security tables of one database (the engine of a ``SqlStore``). Thread-safe:
    every call takes its own connection. Database failures are ``StoreError``."""

    def __init__(self, engine: sa.Engine, hot: HotStatements | None = None):
        self.engine = engine
        self.backend = engine.dialect.name
        self._where = describe(engine.url)
        self._hot = hot  # SQLite: the game store's connections of each thread (``sqlite_hot``)

    @classmethod
    def of(cls, store: object) -> WebSecurityStore:
        """The security tables beside a game store (which must be a ``SqlStore``)."""
        if not isinstance(store, SqlStore):
            raise StoreError(f"the web app needs a SQLite or PostgreSQL store, not {type(store).__name__}")
        return cls(store.engine, store.hot_statements)

    # -- connections ----------------------------------------------------------------------
    @contextmanager
    def _connect(self, *, write: bool) -> Iterator[sa.Connection]:
        with (
            _database_errors(f"{'writing' if write else 'reading'} {self._where}"),
            self.engine.connect() as conn,
        ):
            if self.backend == "postgresql":
                conn.execution_options(isolation_level="READ COMMITTED" if write else "AUTOCOMMIT")
            else:
                conn.execution_options(**{WRITE: write, EACH_STATEMENT: not write})
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        with self._connect(write=True) as conn, conn.begin():
            yield conn

    def _insert(self, table: sa.Table) -> Any:
        return (sqlite if self.backend == "sqlite" else postgresql).insert(table)

    def _locked(self, query: sa.Select[Any]) -> sa.Select[Any]:
        """``query`` locking the rows it reads (PostgreSQL; SQLite's write lock covers all)."""
        return query.with_for_update() if self.backend == "postgresql" else query

    # -- counters ---------------------------------------------------------------------------
    def counters(self, keys: Iterable[str]) -> dict[str, Counter]:
        """The counters with these keys that exist."""
        wanted = sorted(set(keys))
        with self._connect(write=False) as conn:
            rows = conn.execute(sa.select(web_counters).where(web_counters.c.key.in_(wanted))).all()
        return {r.key: _counter(r) for r in rows}

    @contextmanager
    def update_counters(self, keys: Iterable[str], read: Iterable[str] = ()) -> Iterator[CounterUpdate]:
        """One transaction over the counters ``keys`` (locked: concurrent updates of the
        same counters, from any process, wait for this one) and ``read`` (read only). What
        the block ``put``s is written when it ends normally; an exception writes nothing."""
        mine = sorted(set(keys))
        others = sorted(set(read) - set(mine))
        with self._write() as conn:
            if mine:
                conn.execute(
                    self._insert(web_counters)
                    .values([{"key": k, "count": 0, "touched_at": 0.0, "locked_until": 0.0} for k in mine])
                    .on_conflict_do_nothing(index_elements=["key"])
                )
            query = sa.select(web_counters).where(web_counters.c.key.in_(mine)).order_by(web_counters.c.key)
            rows = {r.key: _counter(r) for r in conn.execute(self._locked(query))}
            if others:
                for r in conn.execute(sa.select(web_counters).where(web_counters.c.key.in_(others))):
                    rows[r.key] = _counter(r)
            update = CounterUpdate(rows)
            yield update
            for c in update.changed.values():
                if c.key not in mine:
                    raise ValueError(f"counter {c.key!r} was read only in this transaction")
                conn.execute(
                    sa.update(web_counters)
                    .where(web_counters.c.key == c.key)
                    .values(count=c.count, touched_at=c.touched_at, locked_until=c.locked_until)
                )

    def put_counter(self, counter: Counter) -> None:
        stmt = self._insert(web_counters).values(
            key=counter.key, count=counter.count, touched_at=counter.touched_at, locked_until=counter.locked_until
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["key"],
            set_={c: stmt.excluded[c] for c in ("count", "touched_at", "locked_until")},
        )
        with self._write() as conn:
            conn.execute(stmt)

    def forget_counters(self, keys: Iterable[str]) -> None:
        with self._write() as conn:
            conn.execute(sa.delete(web_counters).where(web_counters.c.key.in_(sorted(set(keys)))))

    def purge_counters(self, prefix: str, touched_before: float, now: float) -> int:
        """Delete the counters under ``prefix`` untouched since ``touched_before`` and not
        locked at ``now``; how many went."""
        with self._write() as conn:
            done = conn.execute(
                sa.delete(web_counters).where(
                    web_counters.c.key.startswith(prefix, autoescape=True),
                    web_counters.c.touched_at < touched_before,
                    web_counters.c.locked_until <= now,
                )
            )
        return int(done.rowcount or 0)

    # -- rate limits -------------------------------------------------------------------------
    def reserve(self, key: str, period: int, want: int, limit: int) -> int:
        """Take up to ``want`` of the ``limit`` requests ``key`` may make in ``period``;
        how many were granted (0: the limit is used up)."""
        with self._write() as conn:
            conn.execute(
                self._insert(rate_limits)
                .values(key=key, period=period, used=0)
                .on_conflict_do_nothing(index_elements=["key"])
            )
            row = conn.execute(
                self._locked(sa.select(rate_limits.c.period, rate_limits.c.used).where(rate_limits.c.key == key))
            ).one()
            used = row.used if row.period == period else 0
            granted = max(0, min(want, limit - used))
            if granted or row.period != period:
                conn.execute(
                    sa.update(rate_limits)
                    .where(rate_limits.c.key == key)
                    .values(period=period, used=used + granted)
                )
        return granted

    # -- sessions ------------------------------------------------------------------------------
    def add_session(self, row: SessionRow) -> None:
        with self._write() as conn:
            conn.execute(sa.insert(web_sessions).values(**row.__dict__))

    def session(self, id_hash: str) -> SessionRow | None:
        with self._connect(write=False) as conn:
            r = conn.execute(sa.select(web_sessions).where(web_sessions.c.id_hash == id_hash)).first()
        return None if r is None else SessionRow(**r._asdict())

    def touch_session(self, id_hash: str, seen_at: float) -> None:
        with self._write() as conn:
            conn.execute(sa.update(web_sessions).where(web_sessions.c.id_hash == id_hash).values(seen_at=seen_at))

    def end_session(self, id_hash: str) -> None:
        with self._write() as conn:
            conn.execute(sa.delete(web_sessions).where(web_sessions.c.id_hash == id_hash))

    def purge_sessions(self, now: float, idle_before: float) -> int:
        """Delete the sessions expired at ``now`` or unused since ``idle_before``."""
        with self._write() as conn:
            done = conn.execute(
                sa.delete(web_sessions).where(
                    sa.or_(web_sessions.c.expires_at <= now, web_sessions.c.seen_at < idle_before)
                )
            )
        return int(done.rowcount or 0)

    # -- seats -------------------------------------------------------------------------------
    def seat_faction(self, game: str, token_hash: str) -> str | None:
        """The faction of ``game`` whose seat has this token hash (None: no such seat). One
        statement of constant text through the driver (the unique index on the hash finds
        the row): no statement built or compiled per request."""
        if self._hot is not None:  # every player's request asks: the thread's own connection
            found = self._hot.first_row(_SEAT_QMARK, (token_hash, game))
            return None if found is None else str(found[0])
        sql = _SEAT_QMARK if self.backend == "sqlite" else _SEAT_PYFORMAT
        params: Any = (token_hash, game) if self.backend == "sqlite" else {"h": token_hash, "g": game}
        with self._connect(write=False) as conn:
            row = conn.exec_driver_sql(sql, params).first()
        return None if row is None else str(row[0])

    # -- credentials ---------------------------------------------------------------------------
    def credential(self, account: str) -> str | None:
        with self._connect(write=False) as conn:
            value = conn.execute(
                sa.select(web_credentials.c.hash).where(web_credentials.c.account == account)
            ).scalar()
        return None if value is None else str(value)

    def add_credential(self, account: str, hash: str, now: float) -> bool:
        """Store ``hash`` for ``account`` unless one is there; whether it was stored."""
        with self._write() as conn:
            done = conn.execute(
                self._insert(web_credentials)
                .values(account=account, hash=hash, changed_at=now)
                .on_conflict_do_nothing(index_elements=["account"])
            )
        return bool(done.rowcount)

    def replace_credential(self, account: str, hash: str, now: float) -> None:
        """Store ``hash`` for ``account`` and end every session of that account (one
        transaction: a session of the old password never outlives it)."""
        stmt = self._insert(web_credentials).values(account=account, hash=hash, changed_at=now)
        stmt = stmt.on_conflict_do_update(
            index_elements=["account"], set_={"hash": stmt.excluded.hash, "changed_at": stmt.excluded.changed_at}
        )
        with self._write() as conn:
            conn.execute(stmt)
            conn.execute(sa.delete(web_sessions).where(web_sessions.c.account == account))
