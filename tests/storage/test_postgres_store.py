"""The PostgreSQL back end passes the GameStore contract; a stale append that slips
past the head check is stopped by the primary key and reported as a ConcurrencyError
(or as a replay, when the winner wrote the same idempotency key)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from kingmaker.storage import AppendResult, ConcurrencyError, SqlStore, open_store
from kingmaker.storage.schema import events, idempotency
from tests.storage.contract import *  # noqa: F403
from tests.storage.contract import _initial, envs, record


@pytest.fixture
def store(pg_url: str) -> Iterator[SqlStore]:
    s = open_store(pg_url)
    yield s
    s.close()


def _uncommitted_append(store: SqlStore, seq: int, key: str | None = None) -> sa.Connection:
    """Another app process mid-append: the envelope at ``seq`` (and ``key``) inserted,
    not yet committed."""
    conn = store.engine.connect()
    conn.begin()
    conn.execute(events.insert(), [SqlStore._event_row("g1", e) for e in envs(seq, 1)])
    if key is not None:
        conn.execute(
            idempotency.insert().values(
                game_id="g1", key=key, first_seq=seq, last_seq=seq, response={"by": "other"}
            )
        )
    return conn


def _in_thread(fn: object) -> tuple[threading.Thread, list[object]]:
    out: list[object] = []

    def run() -> None:
        try:
            out.append(fn())  # type: ignore[operator]
        except Exception as e:
            out.append(e)

    t = threading.Thread(target=run)
    t.start()
    return t, out


def test_the_primary_key_stops_a_stale_append_that_passed_the_head_check(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    other = _uncommitted_append(store, 1)
    t, out = _in_thread(lambda: store.append("g1", 0, envs(1, 2)))  # reads head 0: passes the check
    time.sleep(0.3)
    assert t.is_alive()  # its insert waits on the other transaction's row
    other.commit()
    other.close()
    t.join(10)
    assert len(out) == 1 and isinstance(out[0], ConcurrencyError) and out[0].actual == 1
    assert [e.seq for e in store.envelopes("g1")] == [1]


def test_a_racing_retry_with_the_same_key_is_a_replay(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    other = _uncommitted_append(store, 1, key="k1")
    t, out = _in_thread(
        lambda: store.append("g1", 0, envs(1, 1), idempotency_key="k1", response={"by": "me"})
    )
    time.sleep(0.3)
    other.commit()
    other.close()
    t.join(10)
    assert out == [AppendResult(1, 1, {"by": "other"}, replayed=True)]
    assert store.head("g1") == 1


def test_two_app_processes_see_each_others_appends(pg_url: str) -> None:
    with open_store(pg_url) as a, open_store(pg_url) as b:
        a.create_game(record(), _initial())
        a.append("g1", 0, envs(1, 2))
        with pytest.raises(ConcurrencyError) as info:
            b.append("g1", 0, envs(1, 1))
        assert info.value.actual == 2
        assert b.append("g1", 2, envs(3, 1)).last_seq == 3
        assert a.head("g1") == 3
