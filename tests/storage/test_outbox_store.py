"""The outbox's SQL (``storage.outbox``) on SQLite and PostgreSQL alike: a message is
queued once, a due row is claimed by one sender only (threads claiming at once), a
lease that runs out leaves the row uncertain, the cursor only moves forward, and the
game's settings are kept."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kingmaker.storage import SqlStore, UnknownGame, open_store
from kingmaker.storage.outbox import NewMessage, NotifySettings, OutboxStore
from tests.storage.contract import _initial, record


@pytest.fixture
def box(any_url: str) -> Iterator[OutboxStore]:
    store = open_store(any_url)
    store.create_game(record(), _initial())
    yield OutboxStore.of(store)
    store.close()


def _msgs(n: int, game: str = "g1") -> list[NewMessage]:
    return [
        NewMessage("email", "red", "report", str(i), i, f"{game}/t/{i}", f"s{i}", f"b{i}") for i in range(n)
    ]


def test_queued_once_claimed_once_and_finished(box: OutboxStore) -> None:
    assert box.enqueue("g1", _msgs(3), 100.0) == 3
    assert box.enqueue("g1", _msgs(4), 101.0) == 1  # three were there already
    assert box.claim(99.0, 60) == []  # none due before it was queued
    first = box.claim(101.0, 60, limit=2)
    assert [r.status for r in first] == ["sending", "sending"] and all(r.attempts == 1 for r in first)
    assert first[0].claimed_until == 161.0
    rest = box.claim(101.0, 60)
    assert {r.id for r in rest}.isdisjoint(r.id for r in first) and len(rest) == 2
    box.sent(first[0].id, 102.0, "ann@example.org")
    box.failed(first[1].id, "451 later", 200.0)
    box.failed(rest[0].id, "550 no", None)
    assert box.counts("g1") == {"sent": 1, "queued": 1, "failed": 1, "sending": 1}
    assert [r.id for r in box.claim(200.0, 60)] == [first[1].id]
    assert box.claim(500.0, 60) == []  # the leases ran out: uncertain, never claimed again
    assert box.counts("g1") == {"sent": 1, "failed": 1, "uncertain": 2}
    assert box.retry("g1", rest[0].id, 600.0) and not box.retry("g1", first[0].id, 600.0)
    assert not box.retry("other", rest[0].id, 600.0)
    assert [r.id for r in box.claim(600.0, 60)] == [rest[0].id]
    assert [r.id for r in box.rows("g1")] == sorted((r.id for r in box.rows("g1")), reverse=True)


def test_threads_claiming_at_once_never_share_a_row(box: OutboxStore) -> None:
    box.enqueue("g1", _msgs(40), 0.0)
    got: list[list[int]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(4)

    def claimer() -> None:
        mine: list[int] = []
        barrier.wait()
        while rows := box.claim(1.0, 60, limit=3):
            mine += [r.id for r in rows]
        with lock:
            got.append(mine)

    threads = [threading.Thread(target=claimer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    every = [i for mine in got for i in mine]
    assert len(every) == len(set(every)) == 40


def test_the_cursor_moves_forward_only_and_settings_are_kept(box: OutboxStore) -> None:
    assert box.cursor("g1") == 0
    box.advance("g1", 5)
    box.advance("g1", 3)
    assert box.cursor("g1") == 5
    assert box.settings("g1") == NotifySettings()
    box.set_remind_hours("g1", 6)
    box.set_webhook("g1", "https://chat.example.org/h", "k" * 20, "bbcode", 7)
    assert box.settings("g1") == NotifySettings("https://chat.example.org/h", "k" * 20, "bbcode", 7, 6.0)
    box.set_webhook("g1", None, "ignored", "markdown", 9)
    assert box.settings("g1") == NotifySettings(None, None, "markdown", 0, 6.0)
    with pytest.raises(UnknownGame):
        box.set_remind_hours("nope", 1)
    with pytest.raises(Exception, match="SQLite or PostgreSQL"):
        OutboxStore.of(object())
    assert isinstance(SqlStore, type)
