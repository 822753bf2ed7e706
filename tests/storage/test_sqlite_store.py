"""The SQLite back end passes the GameStore contract, with WAL, full sync, a busy
timeout and writers serialised by ``BEGIN IMMEDIATE``."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kingmaker.log.envelope import envelope_to_data
from kingmaker.storage import ConcurrencyError, SqlStore, StoreError, open_store
from tests.storage.contract import *  # noqa: F403
from tests.storage.contract import _initial, envs, record


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqlStore]:
    s = open_store(f"sqlite:///{tmp_path / 'games.db'}")
    yield s
    s.close()


def test_every_connection_uses_wal_full_sync_foreign_keys_and_a_busy_timeout(store: SqlStore) -> None:
    conns = [store.engine.connect() for _ in range(3)]  # three distinct pooled connections
    try:
        for conn in conns:
            pragma = {
                name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            }
            assert pragma["journal_mode"] == "wal"
            assert pragma["synchronous"] == 2  # FULL
            assert pragma["foreign_keys"] == 1
            assert int(pragma["busy_timeout"] or 0) >= 1000
    finally:
        for conn in conns:
            conn.close()


def _raw_insert(path: Path, seq: int) -> sqlite3.Connection:
    """Another writer (a plain sqlite3 connection) holding the write lock, with the
    envelope at ``seq`` written but not committed."""
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    env = envs(seq, 1)[0]
    import json

    raw.execute(
        "INSERT INTO events (game_id, seq, round, turn, actor, rule, kind, v, command, recorded_at, payload)"
        " VALUES (?, ?, 1, 'red', 'red', NULL, 'permission_granted', 2, NULL, '', ?)",
        ("g1", seq, json.dumps(envelope_to_data(env))),
    )
    return raw


def test_a_writer_waits_for_the_write_lock_then_sees_the_new_head(store: SqlStore, tmp_path: Path) -> None:
    store.create_game(record(), _initial())
    raw = _raw_insert(tmp_path / "games.db", 1)
    outcome: list[object] = []

    def append() -> None:
        try:
            outcome.append(store.append("g1", 0, envs(1, 1)))
        except Exception as e:
            outcome.append(e)

    t = threading.Thread(target=append)
    t.start()
    time.sleep(0.4)
    assert t.is_alive() and outcome == []  # waiting (busy timeout), not failed
    raw.execute("COMMIT")
    t.join(10)
    raw.close()
    assert len(outcome) == 1 and isinstance(outcome[0], ConcurrencyError)
    assert outcome[0].actual == 1  # the head was read after the other writer committed
    assert [e.seq for e in store.envelopes("g1")] == [1]


def test_a_writer_gives_up_with_a_store_error_after_the_busy_timeout(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'games.db'}?timeout=0.2")
    try:
        store.create_game(record(), _initial())
        raw = _raw_insert(tmp_path / "games.db", 1)
        started = time.monotonic()
        with pytest.raises(StoreError, match="locked"):
            store.append("g1", 0, envs(1, 1))
        assert time.monotonic() - started < 5
        raw.execute("ROLLBACK")
        raw.close()
        assert store.append("g1", 0, envs(1, 1)).last_seq == 1
    finally:
        store.close()


def test_the_data_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with open_store(str(path)) as store:  # a bare path means SQLite
        store.create_game(record(), _initial())
        store.append("g1", 0, envs(1, 3), idempotency_key="k", response={"n": 3})
    with open_store(f"sqlite:///{path}") as store:
        assert store.game("g1") == record()
        assert list(store.envelopes("g1")) == envs(1, 3)
        assert store.append("g1", 0, envs(1, 3), idempotency_key="k").replayed
