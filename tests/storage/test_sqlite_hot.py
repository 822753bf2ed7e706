"""SQLite's hot statements (``storage.sqlite_hot``: the head, a key's record, an order's
append on the bare ``sqlite3`` connection) write what SQLAlchemy writes, and refuse what
it refuses."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingmaker.storage import ConcurrencyError, SqlStore, StoreError, UnknownGame, open_store
from tests.storage.contract import _initial, envs, record

_COLUMNS = "game_id, seq, round, turn, actor, rule, kind, v, command, recorded_at, payload"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def store(path: Path) -> Iterator[SqlStore]:
    s = open_store(f"sqlite:///{path}")
    yield s
    s.close()


def _rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as conn:
        return list(conn.execute(sql))


def test_the_hot_append_writes_the_rows_sqlalchemy_writes(store: SqlStore, path: Path) -> None:
    assert store._hot is not None
    for game in ("hot", "core"):
        store.create_game(record(game), _initial())
    batch = envs(1, 3)
    store.append("hot", 0, batch, idempotency_key="k", response={"result": "accepted", "n": 1.5})
    store.append("hot", 3, envs(4, 1), idempotency_key="none")  # a key without a response
    hot, store._hot = store._hot, None  # the same appends through SQLAlchemy
    try:
        store.append("core", 0, batch, idempotency_key="k", response={"result": "accepted", "n": 1.5})
        store.append("core", 3, envs(4, 1), idempotency_key="none")
    finally:
        store._hot = hot
    events = _rows(path, f"SELECT {_COLUMNS} FROM events ORDER BY game_id, seq")
    keys = _rows(path, "SELECT * FROM idempotency ORDER BY game_id, key")
    assert [r[1:] for r in events if r[0] == "hot"] == [r[1:] for r in events if r[0] == "core"]
    assert [r[1:] for r in keys if r[0] == "hot"] == [r[1:] for r in keys if r[0] == "core"]
    assert [r[1:] for r in keys if r[0] == "hot"] == [
        ("k", 1, 3, '{"result": "accepted", "n": 1.5}'),
        ("none", 4, 4, None),
    ]
    replay = store.append("hot", 0, batch, idempotency_key="k")
    assert replay.replayed and (replay.first_seq, replay.last_seq) == (1, 3)
    assert replay.response == {"result": "accepted", "n": 1.5}
    assert store.recorded("hot", "none") is not None and store.recorded("hot", "x") is None
    assert store.head("hot") == store.head("core") == 4


def test_an_unknown_game_is_unknown_on_the_hot_statements(store: SqlStore) -> None:
    for call in (
        lambda: store.head("nope"),
        lambda: store.recorded("nope", "k"),
        lambda: store.append("nope", 0, envs(1, 1)),
        lambda: store.append("nope", 0, envs(1, 1), idempotency_key="k"),
    ):
        with pytest.raises(UnknownGame):
            call()


def test_rows_the_database_refuses_are_refused_whole_as_on_sqlalchemy(store: SqlStore, path: Path) -> None:
    store.create_game(record(), _initial())
    with sqlite3.connect(path) as conn:  # a constraint only the database knows
        conn.execute(
            "CREATE TRIGGER no_third BEFORE INSERT ON events WHEN NEW.seq = 3"
            " BEGIN SELECT RAISE(ABORT, 'no third entry'); END"
        )
    with pytest.raises(StoreError, match="refused an append"):
        store.append("g1", 0, envs(1, 3), idempotency_key="k")
    assert store.head("g1") == 0 and store.recorded("g1", "k") is None
    assert store.append("g1", 0, envs(1, 2), idempotency_key="k").last_seq == 2


def test_no_transaction_stays_open_on_a_threads_connection(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 1), idempotency_key="k")
    with pytest.raises(ConcurrencyError):
        store.append("g1", 0, envs(1, 1))
    assert store.append("g1", 0, envs(1, 1), idempotency_key="k").replayed
    assert store._hot is not None
    mine = store._hot._own()
    assert not mine.in_transaction
    # the pool is left whole for every other statement
    pooled = [store.engine.raw_connection() for _ in range(4)]
    try:
        assert mine not in [c.driver_connection for c in pooled]
    finally:
        for c in pooled:
            c.close()


def test_each_thread_has_its_own_connection_set_up_as_the_engines_and_close_closes_them(
    path: Path,
) -> None:
    s = open_store(f"sqlite:///{path}")
    s.create_game(record(), _initial())
    assert s._hot is not None
    hot = s._hot
    seen: list[sqlite3.Connection] = []

    def work(seq: int) -> None:
        s.append("g1", seq, envs(seq + 1, 1))
        assert s.head("g1") >= seq + 1
        seen.append(hot._own())

    work(0)
    t = threading.Thread(target=work, args=(1,))
    t.start()
    t.join()
    work(2)
    assert len(seen) == 3 and seen[0] is seen[2] and seen[0] is not seen[1]
    for conn in {id(c): c for c in seen}.values():
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    s.close()
    for conn in seen:
        with pytest.raises(sqlite3.ProgrammingError):
            conn.execute("SELECT 1")
    with pytest.raises(StoreError, match="closed"):
        s.head("g1")


def test_a_seat_is_found_on_the_threads_connection_as_sqlalchemy_finds_it(store: SqlStore) -> None:
    from kingmaker.storage.base import Seat
    from kingmaker.storage.websec import WebSecurityStore

    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 1), seat=Seat("red", "ann", "h" * 64))
    hot = WebSecurityStore.of(store)
    core = WebSecurityStore(store.engine)  # no hot statements: SQLAlchemy's connection
    assert hot._hot is not None and core._hot is None
    for game, token in (("g1", "h" * 64), ("g1", "x" * 64), ("nope", "h" * 64)):
        assert hot.seat_faction(game, token) == core.seat_faction(game, token)
    assert hot.seat_faction("g1", "h" * 64) == "red"


def test_a_thread_that_ended_has_its_connection_closed_when_another_opens_one(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    assert store._hot is not None
    hot = store._hot
    theirs: list[sqlite3.Connection] = []

    def work() -> None:
        store.head("g1")
        theirs.append(hot._own())

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert theirs[0].execute("SELECT 1").fetchone() == (1,)  # open until another thread opens one
    u = threading.Thread(target=lambda: store.head("g1"))
    u.start()
    u.join()
    with pytest.raises(sqlite3.ProgrammingError):
        theirs[0].execute("SELECT 1")
    assert len(hot._opened) == 1  # the second thread's, not yet known to have ended
