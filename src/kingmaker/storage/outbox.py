"""The notification outbox in the game database (tables in ``schema.py``, migration 0003;
``docs/notifications.md``): the SQL only. What is queued, and how it is sent, is
``kingmaker.notify``'s.

- **Queueing** (``enqueue``): one row per message per recipient, unique by ``dedup``; a
  row whose ``dedup`` is already there is not added again, whoever queues it and however
  often (``INSERT ... ON CONFLICT DO NOTHING``). So each message is queued once.
- **Claiming** (``claim``): in one write transaction, due ``queued`` rows become
  ``sending`` with ``claimed_until`` (now plus a lease), their ``attempts`` counted. On
  PostgreSQL the rows are read ``FOR UPDATE SKIP LOCKED``, on SQLite under the write lock
  (``BEGIN IMMEDIATE``): two senders never claim the same row.
- **Finishing**: ``sent`` records the delivery; ``failed`` records the error and either
  queues the row again at ``retry_at`` or gives it up (``failed``).
- **At most once**: a row still ``sending`` when its lease has run out belonged to a
  sender that stopped mid-send; nobody knows whether it went, so it becomes
  ``uncertain`` and is never sent again by itself (the GM may ``retry`` it).
- ``notify_cursors``: per game, the last log entry the queueing has read (it only moves
  forward); ``game_notify``: the game's webhook and reminder settings.

Times are seconds since the epoch, given by the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .base import StoreError, UnknownGame
from .engines import EACH_STATEMENT, WRITE, describe
from .schema import game_notify, games, notify_cursors, outbox
from .sqlstore import SqlStore, _database_errors

QUEUED: Final = "queued"  # waiting for its next attempt (``next_attempt_at``)
SENDING: Final = "sending"  # claimed by a sender until ``claimed_until``
SENT: Final = "sent"
FAILED: Final = "failed"  # given up after the last attempt, or refused for good
UNCERTAIN: Final = "uncertain"  # its sender stopped while sending: it may have gone
CANCELLED: Final = "cancelled"  # nowhere to send it any more (address or webhook removed)
STATUSES: Final = (QUEUED, SENDING, SENT, FAILED, UNCERTAIN, CANCELLED)

DEFAULT_REMIND_HOURS: Final = 12.0
DEFAULT_FORMAT: Final = "markdown"


@dataclass(frozen=True)
class NewMessage:
    """A message to queue: ``channel`` ``email`` (to ``faction``'s seat) or ``webhook``."""

    channel: str
    faction: str | None
    kind: str  # alliance, order, army, ransom, storm, permission, report, reminder, turn_report
    ref: str  # what it is about: a declaration's or request's id, a turn, a deadline
    seq: int  # the log entry that made it (0: none, e.g. a reminder)
    dedup: str  # unique: the same message is queued once
    subject: str
    body: str
    detail: dict[str, Any] | None = None


@dataclass(frozen=True)
class OutboxRow:
    id: int
    game_id: str
    channel: str
    faction: str | None
    kind: str
    ref: str
    seq: int
    dedup: str
    status: str
    attempts: int
    last_error: str | None
    created_at: float
    next_attempt_at: float
    claimed_until: float | None
    sent_at: float | None
    address: str | None
    subject: str | None
    body: str | None
    detail: dict[str, Any] | None


@dataclass(frozen=True)
class NotifySettings:
    """A game's webhook (URL and signing secret: both secret, the GM's only; the format
    of the report it posts; the entry it counts from) and its reminder lead time (hours
    before a deadline; 0: no reminders)."""

    webhook_url: str | None = None
    webhook_secret: str | None = None
    webhook_format: str = DEFAULT_FORMAT
    webhook_since: int = 0
    remind_hours: float = DEFAULT_REMIND_HOURS


def _row(r: sa.Row[Any]) -> OutboxRow:
    m = r._mapping
    return OutboxRow(**{k: m[k] for k in OutboxRow.__dataclass_fields__})


class OutboxStore:
    """The outbox tables of one database (the engine of a ``SqlStore``). Thread-safe:
    every call takes its own connection. Database failures are ``StoreError``."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.backend = engine.dialect.name
        self._where = describe(engine.url)

    @classmethod
    def of(cls, store: object) -> OutboxStore:
        """The outbox beside a game store (which must be a ``SqlStore``)."""
        if not isinstance(store, SqlStore):
            raise StoreError(f"notifications need a SQLite or PostgreSQL store, not {type(store).__name__}")
        return cls(store.engine)

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

    @staticmethod
    def _need(conn: sa.Connection, game_id: str) -> None:
        if conn.execute(sa.select(games.c.id).where(games.c.id == game_id)).first() is None:
            raise UnknownGame(game_id)

    # -- the cursor -----------------------------------------------------------------------
    def cursor(self, game_id: str) -> int:
        """The last entry of ``game_id`` the queueing has read (0: none)."""
        with self._connect(write=False) as conn:
            seq = conn.execute(
                sa.select(notify_cursors.c.seq).where(notify_cursors.c.game_id == game_id)
            ).scalar()
        return int(seq or 0)

    def advance(self, game_id: str, seq: int) -> None:
        """Move the cursor forward to ``seq`` (never back)."""
        with self._write() as conn:
            done = conn.execute(
                notify_cursors.update()
                .where(notify_cursors.c.game_id == game_id, notify_cursors.c.seq < seq)
                .values(seq=seq)
            )
            if not done.rowcount:
                conn.execute(
                    self._insert(notify_cursors)
                    .values(game_id=game_id, seq=seq)
                    .on_conflict_do_nothing(index_elements=["game_id"])
                )

    # -- queueing -------------------------------------------------------------------------
    def enqueue(self, game_id: str, messages: Iterable[NewMessage], now: float) -> int:
        """Queue ``messages`` (due now); those already queued once (by ``dedup``) are
        left out. How many were new."""
        rows = [
            {
                "game_id": game_id,
                "channel": m.channel,
                "faction": m.faction,
                "kind": m.kind,
                "ref": m.ref,
                "seq": m.seq,
                "dedup": m.dedup,
                "status": QUEUED,
                "attempts": 0,
                "created_at": now,
                "next_attempt_at": now,
                "subject": m.subject,
                "body": m.body,
                "detail": m.detail,
            }
            for m in messages
        ]
        if not rows:
            return 0
        added = 0
        with self._write() as conn:
            for values in rows:  # one by one: a returned id says it was new
                stmt = self._insert(outbox).values(**values).on_conflict_do_nothing(index_elements=["dedup"])
                added += conn.execute(stmt.returning(outbox.c.id)).first() is not None
        return added

    # -- sending --------------------------------------------------------------------------
    def claim(
        self, now: float, lease: float, *, limit: int = 50, channels: Iterable[str] = ("email", "webhook")
    ) -> list[OutboxRow]:
        """Claim up to ``limit`` due rows of ``channels`` for one sender until
        ``now + lease`` (rows whose sender's lease ran out become ``uncertain`` first)."""
        wanted = list(channels)
        with self._write() as conn:
            conn.execute(
                outbox.update()
                .where(outbox.c.status == SENDING, outbox.c.claimed_until < now)
                .values(
                    status=UNCERTAIN,
                    last_error="the sender stopped while sending: it may or may not have gone"
                    " (not sent again unless the GM retries it)",
                )
            )
            query = (
                sa.select(outbox.c.id)
                .where(
                    outbox.c.status == QUEUED,
                    outbox.c.next_attempt_at <= now,
                    outbox.c.channel.in_(wanted),
                )
                .order_by(outbox.c.next_attempt_at, outbox.c.id)
                .limit(limit)
            )
            if self.backend == "postgresql":
                query = query.with_for_update(skip_locked=True)
            ids = list(conn.execute(query).scalars())
            if not ids:
                return []
            conn.execute(
                outbox.update()
                .where(outbox.c.id.in_(ids), outbox.c.status == QUEUED)
                .values(status=SENDING, claimed_until=now + lease, attempts=outbox.c.attempts + 1)
            )
            rows = conn.execute(sa.select(outbox).where(outbox.c.id.in_(ids)).order_by(outbox.c.id)).all()
        return [_row(r) for r in rows]

    def sent(self, row_id: int, now: float, address: str | None = None) -> None:
        """The row went (its sender's claim, or an uncertain row that turned out to)."""
        with self._write() as conn:
            conn.execute(
                outbox.update()
                .where(outbox.c.id == row_id, outbox.c.status.in_((SENDING, UNCERTAIN)))
                .values(status=SENT, sent_at=now, claimed_until=None, last_error=None, address=address)
            )

    def failed(self, row_id: int, error: str, retry_at: float | None) -> None:
        """The attempt failed with ``error``: queued again at ``retry_at``, or (None)
        given up."""
        values: dict[str, Any] = {"last_error": error[:1000], "claimed_until": None}
        if retry_at is None:
            values["status"] = FAILED
        else:
            values |= {"status": QUEUED, "next_attempt_at": retry_at}
        with self._write() as conn:
            conn.execute(
                outbox.update().where(outbox.c.id == row_id, outbox.c.status == SENDING).values(**values)
            )

    def cancel(self, row_id: int, reason: str) -> None:
        with self._write() as conn:
            conn.execute(
                outbox.update()
                .where(outbox.c.id == row_id, outbox.c.status.in_((SENDING, QUEUED)))
                .values(status=CANCELLED, last_error=reason, claimed_until=None)
            )

    def retry(self, game_id: str, row_id: int, now: float) -> bool:
        """Queue a failed, uncertain or cancelled row of ``game_id`` again, due now (the
        GM's choice: an uncertain one may then arrive twice). False: no such row."""
        with self._write() as conn:
            done = conn.execute(
                outbox.update()
                .where(
                    outbox.c.id == row_id,
                    outbox.c.game_id == game_id,
                    outbox.c.status.in_((FAILED, UNCERTAIN, CANCELLED)),
                )
                .values(status=QUEUED, next_attempt_at=now, claimed_until=None)
            )
            return bool(done.rowcount)

    # -- reading --------------------------------------------------------------------------
    def rows(self, game_id: str, *, limit: int = 500) -> list[OutboxRow]:
        """The game's rows, newest first."""
        with self._connect(write=False) as conn:
            found = conn.execute(
                sa.select(outbox).where(outbox.c.game_id == game_id).order_by(outbox.c.id.desc()).limit(limit)
            ).all()
        return [_row(r) for r in found]

    def counts(self, game_id: str) -> dict[str, int]:
        """How many of the game's rows are in each status."""
        with self._connect(write=False) as conn:
            found = conn.execute(
                sa.select(outbox.c.status, sa.func.count())
                .where(outbox.c.game_id == game_id)
                .group_by(outbox.c.status)
            ).all()
        return {str(status): int(n) for status, n in found}

    # -- settings -------------------------------------------------------------------------
    def settings(self, game_id: str) -> NotifySettings:
        """The game's settings (the defaults when none were set)."""
        with self._connect(write=False) as conn:
            return self._settings_in(conn, game_id)

    def _put(self, conn: sa.Connection, game_id: str, s: NotifySettings) -> None:
        values = {
            "game_id": game_id,
            "webhook_url": s.webhook_url,
            "webhook_secret": s.webhook_secret,
            "webhook_format": s.webhook_format,
            "webhook_since": s.webhook_since,
            "remind_hours": s.remind_hours,
        }
        stmt = self._insert(game_notify).values(**values)
        conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["game_id"], set_={k: stmt.excluded[k] for k in values if k != "game_id"}
            )
        )

    def set_webhook(self, game_id: str, url: str | None, secret: str | None, fmt: str, since: int) -> None:
        """Set the game's webhook (None: remove it), counting from entry ``since``."""
        with self._write() as conn:
            self._need(conn, game_id)
            old = self._settings_in(conn, game_id)
            new = NotifySettings(url, secret if url else None, fmt, since if url else 0, old.remind_hours)
            self._put(conn, game_id, new)

    def set_remind_hours(self, game_id: str, hours: float) -> None:
        with self._write() as conn:
            self._need(conn, game_id)
            old = self._settings_in(conn, game_id)
            self._put(
                conn,
                game_id,
                NotifySettings(
                    old.webhook_url, old.webhook_secret, old.webhook_format, old.webhook_since, hours
                ),
            )

    @staticmethod
    def _settings_in(conn: sa.Connection, game_id: str) -> NotifySettings:
        r = conn.execute(sa.select(game_notify).where(game_notify.c.game_id == game_id)).first()
        if r is None:
            return NotifySettings()
        return NotifySettings(
            r.webhook_url, r.webhook_secret, r.webhook_format, int(r.webhook_since), float(r.remind_hours)
        )
