"""``SqlStore``: the ``GameStore`` on SQLAlchemy Core, for SQLite and PostgreSQL alike;
``open_store(url)`` picks the back end, sets it up and migrates the schema to head.

How an append stays right under concurrency (one game, many writers):

- everything an append writes (its events, its idempotency key, its snapshot) goes in
  one transaction, which first reads the head and the key: a known key replays the
  first result, a moved head is a clean ``ConcurrencyError``;
- SQLite: the transaction begins with ``BEGIN IMMEDIATE``, so writers take turns and
  the head read inside it cannot go stale before the commit;
- PostgreSQL (read committed, many processes): two writers may both read the same
  head, but the primary key ``(game_id, seq)`` lets only one insert the next seqs; the
  other gets an ``IntegrityError`` (after waiting for the first to commit), which
  becomes a ``ConcurrencyError`` with the head re-read, or a replay if the winner
  wrote the same idempotency key.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from kingmaker.log.envelope import (
    SCHEMA_VERSION,
    Envelope,
    LogFormatError,
    envelope_from_data,
    envelope_to_data,
)

from .base import (
    AppendResult,
    ConcurrencyError,
    GameExists,
    GameRecord,
    Seat,
    SeatTaken,
    Snapshot,
    StoreError,
    UnknownGame,
)
from .engines import EACH_STATEMENT, WRITE, database_url, describe, make_engine
from .migrate import upgrade
from .schema import events, games, idempotency, seats, snapshots
from .sqlite_hot import HotStatements, Refused, event_row

#: Envelopes read per query by ``envelopes()`` (each page in its own short transaction).
PAGE = 1000

# PostgreSQL SQLSTATEs that mean "another transaction got in the way; try again".
_CONFLICT_STATES = {"40001", "40P01"}  # serialization_failure, deadlock_detected


# The head of a game (None: no such game), and with it what an idempotency key recorded.
_HEAD_OF = (
    sa.select(sa.func.coalesce(sa.func.max(events.c.seq), 0))
    .where(events.c.game_id == games.c.id)
    .scalar_subquery()
    .label("head")
)
_HEAD = sa.select(games.c.id, _HEAD_OF).where(games.c.id == sa.bindparam("game_id"))
_HEAD_AND_KEY = (
    sa.select(games.c.id, _HEAD_OF, idempotency.c.first_seq, idempotency.c.last_seq, idempotency.c.response)
    .select_from(
        games.outerjoin(
            idempotency,
            sa.and_(idempotency.c.game_id == games.c.id, idempotency.c.key == sa.bindparam("key")),
        )
    )
    .where(games.c.id == sa.bindparam("game_id"))
)


def open_store(url: str, *, pool_size: int | None = None) -> SqlStore:
    """Open (creating it if need be) the store at ``url`` and migrate it to the newest schema.

    ``url``: ``sqlite:///path/to/games.db`` or a bare file path (SQLite), or
    ``postgresql://user@host:port/dbname`` (PostgreSQL through psycopg 3). A bad URL, a
    server that cannot be reached or a database from a newer program is a ``StoreError``.
    ``pool_size``: how many connections this process keeps open to the database
    (default ``engines.SQLITE_POOL_SIZE`` / ``POSTGRES_POOL_SIZE``); threads beyond it
    wait for a free one. Few is best when many threads write the same game: each
    success makes every other in-flight append of that game stale.
    """
    sa_url = database_url(url)
    engine = make_engine(sa_url, pool_size)
    try:
        with _database_errors(f"cannot open {describe(sa_url)}"):
            upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    return SqlStore(engine)


@contextmanager
def _database_errors(what: str) -> Iterator[None]:
    """Database failures (unreachable, locked, not a database...) as a ``StoreError``."""
    try:
        yield
    except (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.DatabaseError) as e:
        if isinstance(e, sa.exc.IntegrityError):
            raise
        raise StoreError(f"{what}: {_first_line(e)}") from e


def _first_line(error: sa.exc.DBAPIError) -> str:
    """The driver's message without SQLAlchemy's statement dump."""
    text = str(error.orig if error.orig is not None else error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _is_conflict(error: sa.exc.DBAPIError) -> bool:
    """Did the database refuse a write because a concurrent writer got there first?"""
    if isinstance(error, sa.exc.IntegrityError):
        return True
    return getattr(error.orig, "sqlstate", None) in _CONFLICT_STATES


def _token_in_use(game_id: str, seat: Seat) -> str:
    return (
        f"cannot seat {seat.player!r} as {seat.faction!r} in game {game_id!r}: that token is already in use"
    )


class SqlStore:
    """A ``GameStore`` on a SQLAlchemy engine (set up by ``engines.make_engine``).

    Thread-safe: every call takes its own connection from the engine's pool.

    A game's record never changes once created (nothing updates or deletes it), so
    ``game`` keeps the records it has read; games made from the same data set share one
    copy of its board and catalog data.
    """

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.backend = engine.dialect.name
        self._where = describe(engine.url)
        self._records: dict[str, GameRecord] = {}
        self._shared: dict[bytes, dict[str, Any]] = {}  # board and catalog data by content
        self._records_lock = threading.Lock()
        # SQLite: the statements of every order on the bare connection (``sqlite_hot``)
        self._hot = HotStatements(engine, self._where) if self.backend == "sqlite" else None
        self._upserts: dict[tuple[str, tuple[str, ...]], Any] = {}  # see ``_upsert``

    @property
    def hot_statements(self) -> HotStatements | None:
        """SQLite: the statements run on each thread's own connection (None: PostgreSQL)."""
        return self._hot

    def __repr__(self) -> str:
        return f"SqlStore({self._where!r})"

    def __enter__(self) -> SqlStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- connections ------------------------------------------------------------------
    @contextmanager
    def _connect(self, *, write: bool) -> Iterator[sa.Connection]:
        """A pooled connection, database failures reported as ``StoreError``.

        Each read statement runs on its own (PostgreSQL: autocommit; SQLite: no BEGIN):
        no BEGIN/ROLLBACK round trips, and the reads that must agree are one statement.
        Writes on SQLite begin ``IMMEDIATE``.
        """
        with (
            _database_errors(f"{'writing' if write else 'reading'} {self._where}"),
            self.engine.connect() as conn,
        ):
            self._mode(conn, write=write)
            yield conn

    def _mode(self, conn: sa.Connection, *, write: bool) -> None:
        if self.backend == "postgresql":
            conn.execution_options(isolation_level="READ COMMITTED" if write else "AUTOCOMMIT")
        else:
            conn.execution_options(**{WRITE: write, EACH_STATEMENT: not write})

    @contextmanager
    def _read(self) -> Iterator[sa.Connection]:
        with self._connect(write=False) as conn:
            yield conn

    @contextmanager
    def _write(self) -> Iterator[sa.Connection]:
        """One write transaction: committed if the block ends normally, else rolled back."""
        with self._connect(write=True) as conn, conn.begin():
            yield conn

    def _insert(self, table: sa.Table) -> Any:
        dialect = sqlite if self.backend == "sqlite" else postgresql
        return dialect.insert(table)

    def _upsert(self, conn: sa.Connection, table: sa.Table, values: Mapping[str, Any]) -> None:
        """Insert ``values`` into ``table``, or update the row of the same primary key. The
        statement is made once per table and set of columns (making one costs a few ms:
        SQLAlchemy sets up its ``excluded`` columns) and run with the values bound."""
        shape = (table.name, tuple(values))
        stmt = self._upserts.get(shape)
        if stmt is None:
            keys = [c.name for c in table.primary_key.columns]
            insert = self._insert(table)
            stmt = self._upserts[shape] = insert.on_conflict_do_update(
                index_elements=keys, set_={k: insert.excluded[k] for k in values if k not in keys}
            )
        conn.execute(stmt, dict(values))

    @staticmethod
    def _exists(conn: sa.Connection, game_id: str) -> bool:
        return conn.execute(sa.select(games.c.id).where(games.c.id == game_id)).first() is not None

    def _need(self, conn: sa.Connection, game_id: str) -> None:
        if not self._exists(conn, game_id):
            raise UnknownGame(game_id)

    # -- games ------------------------------------------------------------------------
    def create_game(self, record: GameRecord, initial: Snapshot) -> None:
        self.import_game(record, initial, (), None)

    def import_game(
        self, record: GameRecord, initial: Snapshot, envelopes: Sequence[Envelope], snapshot: Snapshot | None
    ) -> None:
        """Create a game with its whole log in one transaction: all of it, or nothing."""
        batch = list(envelopes)
        for i, env in enumerate(batch):
            if env.seq != i + 1:
                raise ValueError(f"envelope seq {env.seq} does not follow {i}")
        rows = [self._event_row(record.id, env) for env in batch]
        try:
            with self._write() as conn:
                if self._exists(conn, record.id):
                    raise GameExists(record.id)
                conn.execute(
                    games.insert().values(
                        id=record.id,
                        name=record.name,
                        created_at=record.created_at,
                        factions=list(record.factions),
                        data_set=record.data_set,
                        board=record.board,
                        catalog=record.catalog,
                        seed=record.seed,
                        commitment=record.commitment,
                        settings=record.settings,
                    )
                )
                self._save_snapshot(conn, record.id, initial)
                if rows:
                    conn.execute(events.insert(), rows)
                if snapshot is not None:
                    self._save_snapshot(conn, record.id, snapshot)
        except sa.exc.IntegrityError as e:
            with self._read() as conn:
                if self._exists(conn, record.id):  # PostgreSQL: created meanwhile by another process
                    raise GameExists(record.id) from None
            raise StoreError(f"the database refused game {record.id!r}: {_first_line(e)}") from e

    def _record(self, row: sa.Row[Any]) -> GameRecord:
        """The record of ``row``: the one already kept for that game, or a new one kept
        from now on (its board and catalog data shared with equal ones)."""
        known = self._records.get(row.id)
        if known is not None:
            return known
        with self._records_lock:
            record = GameRecord(
                id=row.id,
                name=row.name,
                created_at=row.created_at,
                factions=tuple(row.factions),
                data_set=row.data_set,
                board=self._share(row.board),
                catalog=self._share(row.catalog),
                seed=row.seed,
                commitment=row.commitment,
                settings=row.settings,
            )
            return self._records.setdefault(row.id, record)

    def _share(self, data: dict[str, Any]) -> dict[str, Any]:
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return self._shared.setdefault(hashlib.sha256(text.encode("utf-8")).digest(), data)

    def game(self, game_id: str) -> GameRecord:
        known = self._records.get(game_id)
        if known is not None:
            return known
        with self._read() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        if row is None:
            raise UnknownGame(game_id)
        return self._record(row)

    def games(self) -> list[GameRecord]:
        order = (games.c.created_at, games.c.id)
        with self._read() as conn:
            ids = conn.execute(sa.select(games.c.id).order_by(*order)).scalars().all()
            if any(i not in self._records for i in ids):  # read the records not kept yet
                for row in conn.execute(sa.select(games).order_by(*order)).all():
                    self._record(row)
        return [self._records[i] for i in ids]

    # -- the log ----------------------------------------------------------------------
    def head(self, game_id: str) -> int:
        if self._hot is not None:
            return self._hot.head(game_id)
        with self._read() as conn:
            row = conn.execute(_HEAD, {"game_id": game_id}).first()
        if row is None:
            raise UnknownGame(game_id)
        return int(row.head)

    def recorded(self, game_id: str, key: str) -> AppendResult | None:
        if self._hot is not None:
            return self._hot.recorded(game_id, key)
        with self._read() as conn:
            return self._head_and_key(conn, game_id, key)[1]

    @staticmethod
    def _head_and_key(conn: sa.Connection, game_id: str, key: str | None) -> tuple[int, AppendResult | None]:
        """The game's head and what its idempotency ``key`` recorded, read in one statement
        (one snapshot of the database, on PostgreSQL too)."""
        if key is None:
            row = conn.execute(_HEAD, {"game_id": game_id}).first()
            if row is None:
                raise UnknownGame(game_id)
            return int(row.head), None
        found = conn.execute(_HEAD_AND_KEY, {"game_id": game_id, "key": key}).first()
        if found is None:
            raise UnknownGame(game_id)
        seen = None
        if found.first_seq is not None:
            seen = AppendResult(found.first_seq, found.last_seq, found.response, replayed=True)
        return int(found.head), seen

    @staticmethod
    def _event_row(game_id: str, env: Envelope) -> dict[str, Any]:
        payload = envelope_to_data(env)
        event = payload["event"]
        kind = event.get("kind") if isinstance(event, dict) else None
        return {
            "game_id": game_id,
            "seq": env.seq,
            "round": env.round,
            "turn": env.turn,
            "actor": env.actor,
            "rule": env.rule,
            "kind": str(kind or type(env.event).__name__),
            "v": SCHEMA_VERSION,
            "command": env.command,
            "recorded_at": env.recorded_at,
            "payload": payload,
        }

    def append(
        self,
        game_id: str,
        expected_seq: int,
        envelopes: Sequence[Envelope],
        *,
        idempotency_key: str | None = None,
        response: dict[str, Any] | None = None,
        snapshot: Snapshot | None = None,
        seat: Seat | None = None,
    ) -> AppendResult:
        if expected_seq < 0:
            raise ValueError(f"expected_seq must be 0 or more, not {expected_seq}")
        batch = list(envelopes)
        for i, env in enumerate(batch):
            if env.seq != expected_seq + 1 + i:
                raise ValueError(f"envelope seq {env.seq} does not follow {expected_seq + i}")
        if self._hot is not None and snapshot is None and seat is None:  # an order's append
            hot_rows = [event_row(game_id, env) for env in batch]  # encoded before the transaction
            try:
                return self._hot.append(game_id, expected_seq, hot_rows, idempotency_key, response)
            except Refused:
                pass  # rolled back: the general path below finds out why
        rows = [self._event_row(game_id, env) for env in batch]  # encode before the transaction
        result = AppendResult(expected_seq + 1, expected_seq + len(batch), response)
        with self._connect(write=True) as conn:
            try:
                with conn.begin():
                    head, seen = self._head_and_key(conn, game_id, idempotency_key)
                    if seen is not None:
                        return seen
                    if head != expected_seq:
                        raise ConcurrencyError(game_id, expected_seq, head)
                    if rows:
                        conn.execute(events.insert(), rows)
                    if idempotency_key is not None:
                        conn.execute(
                            idempotency.insert().values(
                                game_id=game_id,
                                key=idempotency_key,
                                first_seq=result.first_seq,
                                last_seq=result.last_seq,
                                response=response,
                            )
                        )
                    if snapshot is not None:
                        self._save_snapshot(conn, game_id, snapshot)
                    if seat is not None:
                        self._write_seat(conn, game_id, seat, result.last_seq)
            except sa.exc.DBAPIError as e:
                if not _is_conflict(e):
                    raise
                # Rolled back. Re-read on the same connection (no wait for another).
                self._mode(conn, write=False)
                return self._after_conflict(conn, game_id, expected_seq, idempotency_key, e, seat)
        return result

    def _after_conflict(
        self,
        conn: sa.Connection,
        game_id: str,
        expected_seq: int,
        key: str | None,
        error: sa.exc.DBAPIError,
        seat: Seat | None = None,
    ) -> AppendResult:
        """The database refused the append's rows: find out who got there first (the
        other writer has committed: the database made us wait for it), or whether the
        seat's token is another seat's."""
        head, seen = self._head_and_key(conn, game_id, key)
        if seen is not None:
            return seen
        if head != expected_seq:
            raise ConcurrencyError(game_id, expected_seq, head) from None
        if seat is not None and self._token_taken(conn, game_id, seat):
            raise SeatTaken(_token_in_use(game_id, seat)) from None
        raise StoreError(
            f"the database refused an append to game {game_id!r}: {_first_line(error)}"
        ) from error

    def envelopes(self, game_id: str, after: int = 0, upto: int | None = None) -> Iterator[Envelope]:
        last = after
        if upto is not None and last >= upto:
            with self._read() as conn:
                self._need(conn, game_id)
            return
        while upto is None or last < upto:
            query = sa.select(events.c.seq, events.c.payload).where(
                events.c.game_id == game_id, events.c.seq > last
            )
            if upto is not None:
                query = query.where(events.c.seq <= upto)
            with self._read() as conn:
                page = conn.execute(query.order_by(events.c.seq).limit(PAGE)).all()
                if not page and last == after:  # nothing at all: is there such a game?
                    self._need(conn, game_id)
            for seq, payload in page:
                yield self._decode(game_id, seq, payload)
            if len(page) < PAGE:
                return
            last = page[-1].seq

    @staticmethod
    def _decode(game_id: str, seq: int, payload: Any) -> Envelope:
        try:
            env = envelope_from_data(payload)
        except LogFormatError as e:
            raise LogFormatError(f"game {game_id!r}, seq {seq}: {e}") from None
        if env.seq != seq:
            raise LogFormatError(f"game {game_id!r}: the envelope stored at seq {seq} says seq {env.seq}")
        return env

    # -- snapshots --------------------------------------------------------------------
    def latest_snapshot(self, game_id: str, at_or_before: int | None = None) -> Snapshot:
        query = sa.select(snapshots.c.seq, snapshots.c.state, snapshots.c.state_hash).where(
            snapshots.c.game_id == game_id
        )
        if at_or_before is not None:
            query = query.where(snapshots.c.seq <= at_or_before)
        with self._read() as conn:
            row = conn.execute(query.order_by(snapshots.c.seq.desc()).limit(1)).first()
            if row is None:
                self._need(conn, game_id)
        if row is None:
            raise StoreError(f"game {game_id!r} has no snapshot at or before seq {at_or_before}")
        return Snapshot(row.seq, row.state, row.state_hash)

    def _save_snapshot(self, conn: sa.Connection, game_id: str, snapshot: Snapshot) -> None:
        self._upsert(
            conn,
            snapshots,
            {
                "game_id": game_id,
                "seq": snapshot.seq,
                "state": snapshot.state,
                "state_hash": snapshot.state_hash,
            },
        )

    def save_snapshot(self, game_id: str, snapshot: Snapshot) -> None:
        with self._write() as conn:
            self._need(conn, game_id)
            self._save_snapshot(conn, game_id, snapshot)

    # -- seats ------------------------------------------------------------------------
    def set_seat(self, game_id: str, seat: Seat) -> None:
        try:
            with self._write() as conn:
                self._need(conn, game_id)
                self._write_seat(conn, game_id, seat)
        except sa.exc.IntegrityError:
            raise SeatTaken(_token_in_use(game_id, seat)) from None

    def _write_seat(self, conn: sa.Connection, game_id: str, seat: Seat, head: int | None = None) -> None:
        """Write ``seat`` whole (a new seat replaces the faction's e-mail address too: a new
        player is not told at the old one's); its address counts from ``head`` (default:
        the game's head as this transaction reads it)."""
        since = 0
        if seat.email:
            since = head if head is not None else self._head_and_key(conn, game_id, None)[0]
        values = {
            "game_id": game_id,
            "faction": seat.faction,
            "player": seat.player,
            "token_hash": seat.token_hash,
            "email": seat.email,
            "email_since": since,
        }
        self._upsert(conn, seats, values)

    def set_email(self, game_id: str, faction: str, email: str | None) -> bool:
        with self._write() as conn:
            head, _ = self._head_and_key(conn, game_id, None)
            done = conn.execute(
                seats.update()
                .where(seats.c.game_id == game_id, seats.c.faction == faction)
                .values(email=email, email_since=head if email else 0)
            )
            return bool(done.rowcount)

    @staticmethod
    def _token_taken(conn: sa.Connection, game_id: str, seat: Seat) -> bool:
        row = conn.execute(
            sa.select(seats.c.game_id, seats.c.faction).where(seats.c.token_hash == seat.token_hash)
        ).first()
        return row is not None and (row.game_id, row.faction) != (game_id, seat.faction)

    def seats(self, game_id: str) -> list[Seat]:
        with self._read() as conn:
            rows = conn.execute(
                sa.select(
                    seats.c.faction, seats.c.player, seats.c.token_hash, seats.c.email, seats.c.email_since
                )
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.faction)
            ).all()
            if not rows:  # no seat: is there such a game?
                self._need(conn, game_id)
        return [
            Seat(row.faction, row.player, row.token_hash, row.email, int(row.email_since)) for row in rows
        ]

    def close(self) -> None:
        if self._hot is not None:
            self._hot.close()
        self.engine.dispose()
