"""Both SQL back ends beyond the contract: real games, old envelope versions, long
logs, failures that must leave nothing behind, and the stored columns."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa

from kingmaker.log.envelope import envelope_to_data
from kingmaker.rules.hashing import state_hash
from kingmaker.storage import ConcurrencyError, Seat, Snapshot, SqlStore, StoreError, UnknownGame, open_store
from kingmaker.storage import sqlstore as sqlstore_module
from kingmaker.storage.schema import events, idempotency
from tests.storage import realgame
from tests.storage.contract import _initial, envs, record


@pytest.fixture
def store(any_url: str) -> Iterator[SqlStore]:
    s = open_store(any_url)
    yield s
    s.close()


def test_a_real_game_round_trips_and_replays_to_its_snapshots(store: SqlStore) -> None:
    world = realgame.world()
    store.create_game(realgame.game_record(world), realgame.snapshot_of(world, 0))
    assert store.game("real") == realgame.game_record(world)
    assert state_hash(realgame.initial_state(store, "real")) == state_hash(world)
    steps = list(realgame.played(world, 150, seed=3))
    assert len(steps) > 60
    for i in range(0, len(steps), 20):
        chunk = steps[i : i + 20]
        store.append(
            "real",
            i,
            [s.envelope for s in chunk],
            snapshot=realgame.snapshot_of(chunk[-1].state, chunk[-1].envelope.seq),
        )
    assert list(store.envelopes("real")) == [s.envelope for s in steps]
    head, checked = realgame.check_replay(store, "real")
    assert head == len(steps) and checked == 1 + (len(steps) + 19) // 20


def test_old_envelope_versions_are_upgraded_on_read(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    current = envs(1, 2)
    v1 = {k: v for k, v in envelope_to_data(current[0]).items() if k not in ("recorded_at", "command")}
    v1 |= {"v": 1, "at": "2025-01-01T00:00:00Z"}
    with store.engine.begin() as conn:
        conn.execute(
            events.insert(),
            [
                {**SqlStore._event_row("g1", current[0]), "v": 1, "payload": v1},
                SqlStore._event_row("g1", current[1]),
            ],
        )
    old, new = store.envelopes("g1")
    assert old.recorded_at == "2025-01-01T00:00:00Z" and old.command is None
    assert old.event == current[0].event
    assert new == current[1]


def test_long_logs_are_read_page_by_page(store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlstore_module, "PAGE", 7)
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 50))
    assert [e.seq for e in store.envelopes("g1")] == list(range(1, 51))
    assert [e.seq for e in store.envelopes("g1", after=6, upto=15)] == list(range(7, 16))
    assert [e.seq for e in store.envelopes("g1", after=49)] == [50]
    assert list(store.envelopes("g1", after=50)) == []


def test_a_failure_inside_an_append_writes_nothing_not_even_its_key(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    unstorable = Snapshot(3, {"bad": object()}, "h3")  # fails after the events and the key are inserted
    with pytest.raises(Exception):  # noqa: B017 - whatever the driver raises, nothing may remain
        store.append("g1", 0, envs(1, 3), idempotency_key="k", snapshot=unstorable)
    assert store.head("g1") == 0
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(idempotency)).scalar() == 0
    assert not store.append("g1", 0, envs(1, 3), idempotency_key="k").replayed


def test_a_refused_append_does_not_record_its_key(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 1))
    with pytest.raises(ConcurrencyError):
        store.append("g1", 0, envs(1, 1), idempotency_key="k")
    again = store.append("g1", 1, envs(2, 1), idempotency_key="k", response={"n": 2})
    assert not again.replayed and store.head("g1") == 2
    assert store.append("g1", 1, envs(2, 1), idempotency_key="k").response == {"n": 2}


def test_every_call_on_an_unknown_game_says_so(store: SqlStore) -> None:
    calls: list[Callable[[], object]] = [
        lambda: store.game("nope"),
        lambda: store.head("nope"),
        lambda: store.append("nope", 0, envs(1, 1)),
        lambda: list(store.envelopes("nope")),
        lambda: store.latest_snapshot("nope"),
        lambda: store.save_snapshot("nope", Snapshot(1, {}, "h")),
        lambda: store.set_seat("nope", Seat("red", "Alice", "aa")),
        lambda: store.seats("nope"),
    ]
    for call in calls:
        with pytest.raises(UnknownGame):
            call()


def test_a_token_hash_seats_one_player_only(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    store.create_game(record("g2"), _initial())
    store.set_seat("g1", Seat("red", "Alice", "aa"))
    store.set_seat("g1", Seat("red", "Alice", "aa"))  # the same seat again is fine
    with pytest.raises(StoreError, match="token"):
        store.set_seat("g2", Seat("blue", "Bob", "aa"))
    assert store.seats("g2") == []


def test_a_snapshot_saved_again_at_the_same_seq_replaces_the_first(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 5), snapshot=Snapshot(5, {"n": 1}, "a"))
    store.save_snapshot("g1", Snapshot(5, {"n": 2}, "b"))
    assert store.latest_snapshot("g1") == Snapshot(5, {"n": 2}, "b")
    with pytest.raises(StoreError, match="no snapshot"):
        store.latest_snapshot("g1", at_or_before=-1)


def test_the_stored_columns_mirror_the_envelope(store: SqlStore) -> None:
    store.create_game(record(), _initial())
    batch = envs(1, 2)
    store.append("g1", 0, batch)
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(events).order_by(events.c.seq)).all()
    for row, env in zip(rows, batch, strict=True):
        assert (row.game_id, row.seq, row.round, row.turn, row.actor, row.rule) == (
            "g1",
            env.seq,
            env.round,
            env.turn,
            env.actor,
            env.rule,
        )
        assert (row.kind, row.v, row.command, row.recorded_at) == (
            "permission_granted",
            2,
            env.command,
            env.recorded_at,
        )
        assert row.payload == envelope_to_data(env)


def test_games_are_listed_by_creation_time(store: SqlStore) -> None:
    from dataclasses import replace

    store.create_game(replace(record("b"), created_at="2026-01-02T00:00:00Z"), _initial())
    store.create_game(replace(record("a"), created_at="2026-01-03T00:00:00Z"), _initial())
    store.create_game(replace(record("c"), created_at="2026-01-01T00:00:00Z"), _initial())
    assert [g.id for g in store.games()] == ["c", "b", "a"]
