"""The ``GameStore`` contract: every back end runs these same tests.

A back end's test module defines a ``store`` fixture (a fresh, empty store) and does
``from tests.storage.contract import *``.
"""

from __future__ import annotations

import threading

import pytest

from kingmaker.log.envelope import Envelope
from kingmaker.rules import events as ev
from kingmaker.storage.base import (
    ConcurrencyError,
    GameExists,
    GameRecord,
    GameStore,
    Seat,
    SeatTaken,
    Snapshot,
    StoreError,
    UnknownGame,
)

__all__ = [
    "envs",
    "record",
    "test_a_seat_is_written_with_its_entries_or_not_at_all",
    "test_a_token_belongs_to_one_seat",
    "test_appends_are_atomic_when_a_batch_is_malformed",
    "test_concurrent_appenders_never_both_apply_on_a_stale_state",
    "test_create_and_read_a_game",
    "test_e_mail_addresses_count_from_when_they_are_set",
    "test_envelopes_round_trip_and_ranges",
    "test_idempotency_key_applies_once",
    "test_import_game_is_all_or_nothing",
    "test_seats",
    "test_snapshots",
    "test_stale_append_is_refused_and_writes_nothing",
    "test_unknown_and_duplicate_games",
]


def record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id,
        name="Test game",
        created_at="2026-11-30T06:00:00Z",
        factions=("red", "blue"),
        data_set="tiny",
        board={"name": "tiny", "places": {}},
        catalog={"nobles": {}},
        seed="secret-seed",
        commitment="c0ffee",
        settings={"policy": "hold", "turn_hours": 24},
    )


def envs(start: int, n: int, actor: str = "red") -> list[Envelope]:
    return [
        Envelope(
            seq=start + i,
            round=1,
            turn="red",
            actor=actor,
            rule="LOC.permission",
            event=ev.PermissionGranted("red", "blue", f"place{start + i}", ("road",)),
            recorded_at="2026-11-30T06:00:00Z",
            command=f"cmd{start + i}",
        )
        for i in range(n)
    ]


def _initial() -> Snapshot:
    return Snapshot(0, {"round": 1, "seq": 0}, "h0")


def test_create_and_read_a_game(store: GameStore) -> None:
    store.create_game(record(), _initial())
    got = store.game("g1")
    assert got == record()
    assert [g.id for g in store.games()] == ["g1"]
    assert store.head("g1") == 0
    assert store.latest_snapshot("g1") == _initial()


def test_unknown_and_duplicate_games(store: GameStore) -> None:
    with pytest.raises(UnknownGame):
        store.game("nope")
    with pytest.raises(UnknownGame):
        store.head("nope")
    store.create_game(record(), _initial())
    with pytest.raises(GameExists):
        store.create_game(record(), _initial())


def test_envelopes_round_trip_and_ranges(store: GameStore) -> None:
    store.create_game(record(), _initial())
    batch = envs(1, 5)
    r = store.append("g1", 0, batch)
    assert (r.first_seq, r.last_seq, r.replayed) == (1, 5, False)
    assert store.head("g1") == 5
    assert list(store.envelopes("g1")) == batch
    assert [e.seq for e in store.envelopes("g1", after=2)] == [3, 4, 5]
    assert [e.seq for e in store.envelopes("g1", after=1, upto=3)] == [2, 3]


def test_stale_append_is_refused_and_writes_nothing(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 2))
    with pytest.raises(ConcurrencyError) as info:
        store.append("g1", 1, envs(2, 1))
    assert info.value.actual == 2
    assert store.head("g1") == 2


def test_appends_are_atomic_when_a_batch_is_malformed(store: GameStore) -> None:
    store.create_game(record(), _initial())
    bad = envs(1, 3)
    bad[2] = envs(7, 1)[0]  # a gap in the batch
    with pytest.raises((ValueError, ConcurrencyError)):
        store.append("g1", 0, bad)
    assert store.head("g1") == 0 and list(store.envelopes("g1")) == []


def test_idempotency_key_applies_once(store: GameStore) -> None:
    store.create_game(record(), _initial())
    first = store.append("g1", 0, envs(1, 2), idempotency_key="k1", response={"ok": True})
    again = store.append("g1", 0, envs(1, 2), idempotency_key="k1", response={"ok": True})
    assert again.replayed and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert again.response == {"ok": True}
    assert store.head("g1") == 2
    # what the key recorded can be read before deciding anything again
    seen = store.recorded("g1", "k1")
    assert seen is not None and seen.replayed and seen.response == {"ok": True}
    assert (seen.first_seq, seen.last_seq) == (first.first_seq, first.last_seq)
    assert store.recorded("g1", "k2") is None
    # the same key in another game is another key
    store.create_game(record("g2"), _initial())
    assert store.recorded("g2", "k1") is None
    assert not store.append("g2", 0, envs(1, 1), idempotency_key="k1").replayed


def test_snapshots(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.append("g1", 0, envs(1, 10), snapshot=Snapshot(10, {"seq": 10}, "h10"))
    store.append("g1", 10, envs(11, 10))
    store.save_snapshot("g1", Snapshot(20, {"seq": 20}, "h20"))
    assert store.latest_snapshot("g1").seq == 20
    assert store.latest_snapshot("g1", at_or_before=15).seq == 10
    assert store.latest_snapshot("g1", at_or_before=9).seq == 0
    store.create_game(record("g2"), Snapshot(5, {"seq": 5}, "h5"))
    with pytest.raises(StoreError):
        store.latest_snapshot("g2", at_or_before=1)


def test_seats(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.set_seat("g1", Seat("red", "Alice", "aa"))
    store.set_seat("g1", Seat("blue", "Bob", "bb"))
    store.set_seat("g1", Seat("red", "Carol", "cc"))
    assert store.seats("g1") == [Seat("blue", "Bob", "bb"), Seat("red", "Carol", "cc")]


def test_concurrent_appenders_never_both_apply_on_a_stale_state(store: GameStore) -> None:
    store.create_game(record(), _initial())
    acked: list[int] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        done = 0
        while done < n:
            head = store.head("g1")
            try:
                r = store.append("g1", head, envs(head + 1, 1))
            except ConcurrencyError:
                continue
            with lock:
                acked.append(r.first_seq)
            done += 1

    threads = [threading.Thread(target=writer, args=(20,)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seqs = [e.seq for e in store.envelopes("g1")]
    assert seqs == list(range(1, 161))
    assert sorted(acked) == seqs


def test_import_game_is_all_or_nothing(store: GameStore) -> None:
    batch = envs(1, 30)
    store.import_game(record("imp"), _initial(), batch, Snapshot(30, {"seq": 30}, "h30"))
    assert store.head("imp") == 30 and list(store.envelopes("imp")) == batch
    assert store.latest_snapshot("imp").seq == 30
    with pytest.raises(GameExists):
        store.import_game(record("imp"), _initial(), batch, None)
    broken = envs(1, 5) + envs(9, 1)  # a gap: nothing of it may land
    with pytest.raises((ValueError, ConcurrencyError)):
        store.import_game(record("imp2"), _initial(), broken, None)
    with pytest.raises(UnknownGame):
        store.game("imp2")


def test_a_token_belongs_to_one_seat(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.create_game(record("g2"), _initial())
    store.set_seat("g1", Seat("red", "Alice", "t1"))
    store.set_seat("g1", Seat("red", "Alice", "t1"))  # the same seat again is fine
    with pytest.raises(SeatTaken):
        store.set_seat("g1", Seat("blue", "Bob", "t1"))
    with pytest.raises(SeatTaken):
        store.set_seat("g2", Seat("red", "Eve", "t1"))


def test_a_seat_is_written_with_its_entries_or_not_at_all(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.create_game(record("g2"), _initial())
    r = store.append("g1", 0, envs(1, 1), idempotency_key="seat-red", seat=Seat("red", "Alice", "t1"))
    assert (r.first_seq, r.replayed) == (1, False)
    assert store.seats("g1") == [Seat("red", "Alice", "t1")] and store.head("g1") == 1
    # a stale append writes neither its entries nor its seat
    with pytest.raises(ConcurrencyError):
        store.append("g1", 0, envs(1, 1), seat=Seat("blue", "Bob", "t2"))
    # a retried append (the same key) replays the first answer and writes no new seat
    again = store.append("g1", 1, envs(2, 1), idempotency_key="seat-red", seat=Seat("red", "Alice", "t9"))
    assert again.replayed and again.first_seq == 1
    assert store.seats("g1") == [Seat("red", "Alice", "t1")] and store.head("g1") == 1
    # a token that is another seat's: nothing of the append lands
    for game, faction in (("g1", "blue"), ("g2", "red")):
        with pytest.raises(SeatTaken):
            store.append(
                game, store.head(game), envs(store.head(game) + 1, 2), seat=Seat(faction, "Eve", "t1")
            )
    assert store.head("g1") == 1 and store.head("g2") == 0
    assert store.seats("g1") == [Seat("red", "Alice", "t1")] and store.seats("g2") == []
    # seating a faction again replaces its seat, with the entry that says so
    store.append("g1", 1, envs(2, 1), seat=Seat("red", "Carol", "t3"))
    assert store.seats("g1") == [Seat("red", "Carol", "t3")] and store.head("g1") == 2


def test_e_mail_addresses_count_from_when_they_are_set(store: GameStore) -> None:
    store.create_game(record(), _initial())
    store.create_game(record("g2"), _initial())
    # seated with an address by an append: it counts from that append's last entry
    store.append("g1", 0, envs(1, 2), seat=Seat("red", "Alice", "t1", "alice@example.org"))
    assert store.seats("g1") == [Seat("red", "Alice", "t1", "alice@example.org", 2)]
    # set_email changes the address only, and it counts from the head
    store.append("g1", 2, envs(3, 1), seat=Seat("blue", "Bob", "t2"))
    assert store.seats("g1")[0] == Seat("blue", "Bob", "t2", None, 0)
    store.append("g1", 3, envs(4, 2))
    assert store.set_email("g1", "blue", "bob@example.org") is True
    assert store.seats("g1") == [
        Seat("blue", "Bob", "t2", "bob@example.org", 5),
        Seat("red", "Alice", "t1", "alice@example.org", 2),
    ]
    assert store.set_email("g1", "red", None) is True  # removed
    assert store.seats("g1")[1] == Seat("red", "Alice", "t1", None, 0)
    # no seat, no address; another game's seats are untouched
    assert store.set_email("g1", "green", "x@example.org") is False
    assert store.set_email("g2", "red", "x@example.org") is False
    assert store.seats("g2") == []
    with pytest.raises(UnknownGame):
        store.set_email("nope", "red", "x@example.org")
    # set_seat writes the seat whole: a new player does not inherit the old address
    store.set_seat("g1", Seat("blue", "Carol", "t3"))
    assert store.seats("g1")[0] == Seat("blue", "Carol", "t3", None, 0)
    store.set_seat("g1", Seat("blue", "Carol", "t3", "carol@example.org"))
    assert store.seats("g1")[0] == Seat("blue", "Carol", "t3", "carol@example.org", 5)
    # re-seating by an append replaces the address too
    store.append("g1", 5, envs(6, 1), seat=Seat("blue", "Dan", "t4"))
    assert store.seats("g1")[0] == Seat("blue", "Dan", "t4", None, 0)
